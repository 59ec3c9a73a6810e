#!/usr/bin/env bash
# From a fresh clone to an installed binary: the README's quick start (a release build and a
# stubbed call), then `make install` into a scratch root. Prints the wall-clock seconds of
# each. Takes one full release build, 6 to 13 minutes on 2 cores; run nothing else meanwhile.
set -euo pipefail
repository=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone -q "$repository" "$work/clone"
cd "$work/clone"
start=$(date +%s.%N)
make demo > /dev/null 2> "$work/quick.err"
built=$(date +%s.%N)
make install DESTDIR="$work/root" > /dev/null 2> "$work/install.err"
installed=$(date +%s.%N)
"$work/root/usr/local/bin/moya-cli" --version > /dev/null
printf 'quick start (release build + call): %.0f s\n' "$(echo "$built - $start" | bc)"
printf 'make install after it:              %.0f s\n' "$(echo "$installed - $built" | bc)"
printf 'fresh clone to installed:           %.0f s\n' "$(echo "$installed - $start" | bc)"
