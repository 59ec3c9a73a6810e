#!/usr/bin/env bash
# JSON Schema validation, side by side: 10,000 instances of the Asana corpus's largest
# schema (ProjectResponse, OpenAPI 3.0), made by bench/schema_bench.py and each checked
# valid by Python's jsonschema first, validated by MoyaSchema (release build), jsonschema
# and jsonschema-rs (PyPI). Each prints the median milliseconds of one pass over all of
# them; every validator must find every instance valid.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(bash bench/build.sh schema-bench)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 bench/schema_bench.py prepare "$work"
runs=${RUNS:-5}
echo "median ms for one pass over 10,000 instances ($runs passes each):"
echo "  MoyaSchema     $("$bin/schema-bench" "$work/schema.json" "$work/instances.json" "$runs")"
echo "  jsonschema     $(python3 bench/schema_bench.py jsonschema "$work" "$runs")"
echo "  jsonschema-rs  $(python3 bench/schema_bench.py jsonschema-rs "$work" "$runs")"
