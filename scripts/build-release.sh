#!/usr/bin/env bash
# Builds the release of the products named in "$@" and prints the folder they are in: what
# `make install` installs and the benchmarks measure. It is plain `swift build -c release`:
# the start-up tuning is the executables' release link settings in Package.swift, so this
# builds in .build/release, where the quick start's `swift run -c release` already built.
set -euo pipefail
cd "$(dirname "$0")/.."
for product in "$@"; do
  swift build -c release --product "$product" >&2
done
swift build -c release --show-bin-path
