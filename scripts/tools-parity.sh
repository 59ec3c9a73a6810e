#!/usr/bin/env bash
# The installed moya-cli-tools, linked without ICU's data (Sources/CNoICUData), against the
# debug build's, whose Foundation has all of it: the same stdout, stderr and status for every
# import of the shared corpus (../shared/openapi-real, ../shared/openapi-examples), every
# Arazzo document in the fixtures, and the export of every bundled spec.
#
#   scripts/tools-parity.sh BIN_DIR    BIN_DIR holds the installed moya-cli-tools
set -euo pipefail
cd "$(dirname "$0")/.."
installed=${1:?usage: tools-parity.sh BIN_DIR}/moya-cli-tools
reference=$(swift build --show-bin-path)/moya-cli-tools
[ -x "$reference" ] || swift build --product moya-cli-tools > /dev/null
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
compared=0
same() {
  "$installed" "$@" > "$scratch/a.out" 2> "$scratch/a.err" && a=0 || a=$?
  "$reference" "$@" > "$scratch/b.out" 2> "$scratch/b.err" && b=0 || b=$?
  if [ "$a" != "$b" ] || ! cmp -s "$scratch/a.out" "$scratch/b.out" || ! cmp -s "$scratch/a.err" "$scratch/b.err"; then
    echo "tools-parity: moya-cli-tools $* differs from the debug build's (status $a against $b):" >&2
    diff "$scratch/b.out" "$scratch/a.out" | head -20 >&2 || true
    diff "$scratch/b.err" "$scratch/a.err" | head -20 >&2 || true
    exit 1
  fi
  compared=$((compared + 1))
}
for document in ../shared/openapi-real/*.yaml ../shared/openapi-real/*.json ../shared/openapi-examples/*.yaml \
  ../shared/openapi-examples/*.json; do
  [ -f "$document" ] || continue
  same openapi import "$document" - -
done
for document in Tests/Fixtures/arazzo/*.arazzo.yaml; do
  same openapi import-arazzo "$document" -
done
for spec in specs/*.yaml; do
  same openapi export "$(basename "$spec" .yaml)" - specs
done
# A document that is not one, and one that is not there: the failures are the same too.
same openapi import README.md - -
same openapi import "$scratch/none.yaml" - -
echo "tools-parity: $compared runs the same"
