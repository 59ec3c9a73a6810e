#!/usr/bin/env bash
# moya-cli-tools with and without ICU's data (Sources/CNoICUData): sizes stripped, and the
# time of an export and of an import of a real description, side by side in one hyperfine run.
#
#   bench/tools-size.sh WITH_ICU WITHOUT_ICU    two stripped builds of moya-cli-tools
set -euo pipefail
cd "$(dirname "$0")/.."
with=${1:?usage: tools-size.sh WITH_ICU WITHOUT_ICU}
without=${2:?usage: tools-size.sh WITH_ICU WITHOUT_ICU}
runs=${RUNS:-40}
echo "sizes: with ICU's data $(stat -c %s "$with") bytes, without $(stat -c %s "$without") bytes"
document=../shared/openapi-real/petstore3.yaml
json=$(mktemp)
trap 'rm -f "$json"' EXIT
hyperfine -N -w 3 -r "$runs" --export-json "$json" \
  -n "export, with ICU's data" "$with openapi export myservice - specs" \
  -n "export, without" "$without openapi export myservice - specs" \
  -n "import petstore3, with ICU's data" "$with openapi import $document - -" \
  -n "import petstore3, without" "$without openapi import $document - -" > /dev/null 2>&1
python3 - "$json" <<'PY'
import json, statistics, sys
for result in json.load(open(sys.argv[1]))["results"]:
    print(f"{result['command']}: median {statistics.median(result['times']) * 1000:.1f} ms")
PY
