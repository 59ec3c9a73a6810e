#!/usr/bin/env bash
# The benchmarks measure the build that `make install` installs: the same script, the same
# flags, the same scratch folder. Prints the folder the products are in.
set -euo pipefail
exec bash "$(dirname "$0")/../scripts/build-release.sh" "$@"
