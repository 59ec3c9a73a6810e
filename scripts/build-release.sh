#!/usr/bin/env bash
# Builds the release of the products named in "$@" and prints the folder they are in: what
# `make install` installs and the benchmarks measure. It is plain `swift build -c release`:
# the start-up tuning is the executables' release link settings in Package.swift, so this
# builds in .build/release, where the quick start's `swift run -c release` already built.
set -euo pipefail
cd "$(dirname "$0")/.."
# The manifest reads the environment (Package.swift's `Context.environment`), so SwiftPM plans
# the build again, for some 20 s, whenever the environment differs from the last build's:
# make's own variables (`make install DESTDIR=…`) and the packing ones are not the build's.
build() {
  env -u DESTDIR -u PREFIX -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES -u DIST_GZIP_LEVEL -u DIST_SUFFIX \
    swift build -c release "$@"
}
for product in "$@"; do
  build --product "$product" >&2
done
build --show-bin-path
