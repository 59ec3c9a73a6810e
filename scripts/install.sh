#!/usr/bin/env bash
# Installs moya-cli from a release tarball (what `make dist` writes), a file or a URL, after
# checking its SHA-256.
#
#   scripts/install.sh [--prefix DIR] [--sha256 HEX] TARBALL|URL
#
# The checksum is --sha256's, else the one in TARBALL.sha256 beside the file (or at URL.sha256);
# without one, nothing is installed. Every file is checked again against the tarball's own
# SHA256SUMS, then copied under PREFIX (default /usr/local; DESTDIR is honoured), binaries
# 755 and the rest 644. Exits 1 on a checksum mismatch, 2 on a usage error.
set -euo pipefail
prefix=${PREFIX:-/usr/local}
expected=
source=
usage() { echo "usage: install.sh [--prefix DIR] [--sha256 HEX] TARBALL|URL" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --prefix) [ $# -ge 2 ] || usage; prefix=$2; shift 2 ;;
    --sha256) [ $# -ge 2 ] || usage; expected=$2; shift 2 ;;
    -h | --help) sed -n '2,11s/^# \{0,1\}//p' "$0"; exit 0 ;;
    -*) usage ;;
    *) [ -z "$source" ] || usage; source=$1; shift ;;
  esac
done
[ -n "$source" ] || usage

digest() {
  if command -v sha256sum > /dev/null; then sha256sum "$1"; else shasum -a 256 "$1"; fi | cut -d' ' -f1
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tarball=$work/release.tar.gz
case $source in
  http://* | https://*)
    curl -fsSL --proto '=https,http' -o "$tarball" "$source"
    [ -n "$expected" ] || expected=$(curl -fsSL "$source.sha256" | cut -d' ' -f1)
    ;;
  *)
    [ -f "$source" ] || { echo "install.sh: error: no file at $source" >&2; exit 2; }
    cp "$source" "$tarball"
    if [ -z "$expected" ] && [ -f "$source.sha256" ]; then expected=$(cut -d' ' -f1 < "$source.sha256"); fi
    ;;
esac
if [ -z "$expected" ]; then
  echo "install.sh: error: no checksum for $source: give --sha256 HEX or put $(basename "$source").sha256 beside it" >&2
  exit 2
fi
actual=$(digest "$tarball")
if [ "$actual" != "$expected" ]; then
  echo "install.sh: error: $source has SHA-256 $actual, expected $expected; nothing installed" >&2
  exit 1
fi
tar -C "$work" -xzf "$tarball"
root=$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -n 1)
if [ -z "$root" ] || [ ! -f "$root/SHA256SUMS" ]; then
  echo "install.sh: error: $source is not a moya-cli release tarball (no SHA256SUMS); nothing installed" >&2
  exit 1
fi
while read -r sum path; do
  if [ "$(digest "$root/$path")" != "$sum" ]; then
    echo "install.sh: error: $path does not match the tarball's SHA256SUMS; nothing installed" >&2
    exit 1
  fi
done < "$root/SHA256SUMS"
destination=${DESTDIR:-}$prefix
while read -r _ path; do
  case $path in bin/*) mode=755 ;; *) mode=644 ;; esac
  install -d "$(dirname "$destination/$path")"
  install -m "$mode" "$root/$path" "$destination/$path"
  echo "installed $destination/$path"
done < "$root/SHA256SUMS"
