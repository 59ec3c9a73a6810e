#!/usr/bin/env bash
# From a fresh clone to a first result, and from a fresh clone to an installed moya-cli: the
# README's quick start (`make demo`: a debug build of moya-cli and a stubbed call) in one
# clone, `make install` (the release of moya-cli and moya-cli-tools) in another, so that
# neither is helped by the other's build. Prints the wall-clock seconds of each, and what was
# installed, in bytes. Takes a debug and a release build from nothing, about 20 minutes on 2
# cores; run nothing else meanwhile.
set -euo pipefail
repository=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
seconds() { printf '%.0f' "$(echo "$2 - $1" | bc)"; }

git clone -q "$repository" "$work/demo"
start=$(date +%s.%N)
(cd "$work/demo" && make demo > "$work/demo.out" 2> "$work/demo.err")
done=$(date +%s.%N)
grep -q '"first_name"' "$work/demo.out"
echo "quick start, make demo (debug build + call): $(seconds "$start" "$done") s"
rm -rf "$work/demo"

git clone -q "$repository" "$work/install"
start=$(date +%s.%N)
(cd "$work/install" && make install DESTDIR="$work/root" > /dev/null 2> "$work/install.err")
done=$(date +%s.%N)
"$work/root/usr/local/bin/moya-cli" --version > /dev/null
echo "make install from a fresh clone:             $(seconds "$start" "$done") s"
for program in moya-cli moya-cli-tools; do
  echo "installed $program: $(stat -c %s "$work/root/usr/local/bin/$program") bytes"
done
echo "installed in all: $(du -sb "$work/root" | cut -f1) bytes"
