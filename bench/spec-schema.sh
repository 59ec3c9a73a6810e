#!/usr/bin/env bash
# `moya-cli schema` (goal: within 10 ms) beside `moya-cli --version`, the least a process of it
# does, and `cat` of the schema file, the floor; then the schema checked against every spec
# and fixture by Python's jsonschema (scripts/spec-schema-check.py): the disagreements.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
port=${BENCH_PORT:-18085}
source bench/serve.sh moya-cli bench-server
moya="$bin/moya-cli"
cmp <("$moya" schema) schema/moya-cli-spec.schema.json
hyperfine -N --warmup 5 --runs "${RUNS:-100}" --export-json bench/out/spec-schema.json \
  -n "moya-cli schema" "$moya schema" \
  -n "moya-cli --version" "$moya --version" \
  -n "cat the schema file" "cat schema/moya-cli-spec.schema.json"
python3 scripts/spec-schema-check.py "$moya" specs Examples Tests/Fixtures | tail -1
