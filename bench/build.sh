#!/usr/bin/env bash
# Builds release products the way the benchmarks measure them, and prints the bin path.
# Every product is built with the same flags in the same scratch path, so that building one
# never rebuilds the others. lld with packed relative relocations (RELR) keeps the
# executable position-independent while making its start-up relocations cheap.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --static-swift-stdlib --scratch-path .build-relr
  -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs)
for product in "$@"; do
  swift build "${flags[@]}" --product "$product" >&2
done
swift build "${flags[@]}" --show-bin-path
