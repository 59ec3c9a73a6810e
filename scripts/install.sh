#!/usr/bin/env bash
# Installs moya-cli from a release tarball (what `make dist` writes), a file or a URL, after
# checking its SHA-256.
#
#   scripts/install.sh [--prefix DIR] [--sha256 HEX | --sha256-url URL] [--insecure-http] TARBALL|URL
#
# A URL must be https. The checksum is --sha256's (hex, either case); else, for a URL, the
# first word of what --sha256-url serves, which must be an https URL on another origin than
# the tarball's, so that one server cannot hand out both a tampered tarball and its sum; else,
# for a file, the one in TARBALL.sha256 beside it. Without one, nothing is installed.
# --insecure-http allows an http URL: anyone on the network path can then swap the tarball,
# and without --sha256 its sum too. Every file is checked again against the tarball's own
# SHA256SUMS, then copied under PREFIX (default /usr/local; DESTDIR is honoured), binaries
# 755 and the rest 644. Exits 1 on a checksum mismatch, 2 on a usage error.
set -euo pipefail
prefix=${PREFIX:-/usr/local}
expected=
sum_url=
insecure_http=
source=
usage() {
  echo "usage: install.sh [--prefix DIR] [--sha256 HEX | --sha256-url URL] [--insecure-http] TARBALL|URL" >&2
  exit 2
}
fail() { echo "install.sh: error: $1" >&2; exit "${2:-2}"; }
while [ $# -gt 0 ]; do
  case $1 in
    --prefix) [ $# -ge 2 ] || usage; prefix=$2; shift 2 ;;
    --sha256) [ $# -ge 2 ] || usage; expected=$2; shift 2 ;;
    --sha256-url) [ $# -ge 2 ] || usage; sum_url=$2; shift 2 ;;
    --insecure-http) insecure_http=1; shift ;;
    -h | --help) sed -n '2,16s/^# \{0,1\}//p' "$0"; exit 0 ;;
    -*) usage ;;
    *) [ -z "$source" ] || usage; source=$1; shift ;;
  esac
done
[ -n "$source" ] || usage
[ -z "$expected" ] || [ -z "$sum_url" ] || fail "give --sha256 or --sha256-url, not both"

# scheme://host[:port] of a URL, lowercased.
origin() { printf '%s\n' "$1" | sed -E 's|^([A-Za-z][A-Za-z0-9+.-]*://[^/?#]*).*|\1|' | tr '[:upper:]' '[:lower:]'; }
case $source in
  https://*) ;;
  http://*)
    [ -n "$insecure_http" ] ||
      fail "$source is plain http: anyone on the network path could swap the tarball; use https, or --insecure-http to accept that risk"
    ;;
  *://*) fail "$source: only https URLs (or a file) are installed" ;;
esac
if [ -n "$sum_url" ]; then
  case $sum_url in https://*) ;; *) fail "--sha256-url must be an https URL" ;; esac
  case $source in
    http://* | https://*)
      [ "$(origin "$sum_url")" != "$(origin "$source")" ] ||
        fail "--sha256-url is on the tarball's own origin, which could serve a tampered sum with a tampered tarball; name another, or give --sha256"
      ;;
  esac
fi

digest() {
  if command -v sha256sum > /dev/null; then sha256sum "$1"; else shasum -a 256 "$1"; fi | cut -d' ' -f1
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tarball=$work/release.tar.gz
protocols='=https'
[ -z "$insecure_http" ] || protocols='=https,http'
case $source in
  http://* | https://*)
    curl -fsSL --proto "$protocols" --proto-redir "$protocols" -o "$tarball" "$source"
    ;;
  *)
    [ -f "$source" ] || { echo "install.sh: error: no file at $source" >&2; exit 2; }
    cp "$source" "$tarball"
    if [ -z "$expected" ] && [ -f "$source.sha256" ]; then expected=$(cut -d' ' -f1 < "$source.sha256"); fi
    ;;
esac
if [ -n "$sum_url" ]; then
  expected=$(curl -fsSL --proto '=https' --proto-redir '=https' "$sum_url" | head -n 1 | cut -d' ' -f1)
fi
if [ -z "$expected" ]; then
  case $source in
    http://* | https://*) fail "no checksum for $source: give --sha256 HEX, or --sha256-url URL on another origin" ;;
    *) fail "no checksum for $source: give --sha256 HEX or put $(basename "$source").sha256 beside it" ;;
  esac
fi
expected=$(printf '%s' "$expected" | tr '[:upper:]' '[:lower:]')
printf '%s' "$expected" | grep -Eq '^[0-9a-f]{64}$' || fail "the checksum '$expected' is not 64 hex digits"
actual=$(digest "$tarball" | tr '[:upper:]' '[:lower:]')
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
