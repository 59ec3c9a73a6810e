#!/usr/bin/env bash
# The corpus's round trip: each document is imported, the spec exported, the export checked
# by openapi-spec-validator (PyPI, bench/openapi_validate.py) and imported again. Prints one
# row per document: the exits, the validator's verdict, and how many lines of the two specs
# differ, but for the first comment line, which names the file each came from.
# Usage: bench/openapi-roundtrip.sh [CORPUS_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:-../shared/openapi-real}
bin=$(bash bench/build.sh moya-cli moya-cli-tools)
out=bench/out/roundtrip
mkdir -p "$out"
printf '| document | import | export | validator | import again | lines that differ |\n'
printf '| --- | --- | --- | --- | --- | --- |\n'
for file in "$corpus"/*.yaml "$corpus"/*.json; do
  name=$(basename "${file%.*}")
  spec=$out/$name.spec.yaml
  set +e
  "$bin/moya-cli" import openapi "$file" -o "$spec" 2>/dev/null
  imported=$?
  service=$(sed -n 's/^service: //p' "$spec")
  "$bin/moya-cli" export openapi --specs "$spec" "$service" -o "$out/$name.openapi.json"
  exported=$?
  if python3 bench/openapi_validate.py "$out/$name.openapi.json" >/dev/null 2>&1; then verdict=valid; else verdict=refused; fi
  "$bin/moya-cli" import openapi "$out/$name.openapi.json" -o "$out/$name.again.yaml" 2>/dev/null
  again=$?
  set -e
  differ=$(diff <(tail -n +2 "$spec") <(tail -n +2 "$out/$name.again.yaml") | grep -c '^[<>]' || true)
  printf '| %s | %s | %s | %s | %s | %s |\n' "$name" "$imported" "$exported" "$verdict" "$again" "$differ"
done
