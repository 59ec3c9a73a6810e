#!/usr/bin/env bash
# Every document in a folder, as a new user meets it: import (with -o), `validate`,
# `check --stub immediate`, then export and import again. Prints one row per document: the
# operations the document declares under `paths`, the targets the spec has, each command's
# exit, the validator's verdict on the export (openapi-spec-validator, PyPI), and how many lines
# of the two specs differ, `$ref` lines and the first comment line aside.
# The documents are not in the repository: fetch them (ReadMe's oas-examples, Slack's
# slack-api-specs, Netlify's open-api, Adyen's adyen-openapi) into one folder first.
# Usage: bench/openapi-corpus.sh DIR
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:?usage: bench/openapi-corpus.sh DIR}
bin=$(bash bench/build.sh moya-cli moya-cli-tools)
out=bench/out/corpus
rm -rf "$out" && mkdir -p "$out"
count() {
  python3 - "$1" <<'PY'
import json, sys, yaml
path = sys.argv[1]
try:
    text = open(path).read()
    doc = json.loads(text) if text.lstrip().startswith("{") else yaml.safe_load(text)
    if sys.argv[1].endswith(".spec.yaml"):
        print(len(doc.get("targets") or {}))
    else:
        methods = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}
        print(sum(len(methods & set(item)) for item in (doc.get("paths") or {}).values() if isinstance(item, dict)))
except Exception:
    print("-")
PY
}
printf '| document | operations | targets | import | validate | check | export | validator | import again | lines that differ |\n'
printf '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n'
for file in "$corpus"/*; do
  name=$(basename "${file%.*}")
  spec=$out/$name.spec.yaml
  set +e
  "$bin/moya-cli" import openapi "$file" -o "$spec" >/dev/null 2>"$out/$name.import.err"
  imported=$?
  service=$(sed -n 's/^service: //p' "$spec" 2>/dev/null)
  "$bin/moya-cli" validate --specs "$spec" >/dev/null 2>&1
  validated=$?
  "$bin/moya-cli" check --specs "$spec" --stub immediate >/dev/null 2>&1
  checked=$?
  "$bin/moya-cli" export openapi --specs "$spec" "$service" -o "$out/$name.openapi.json" 2>/dev/null
  exported=$?
  if python3 bench/openapi_validate.py "$out/$name.openapi.json" >/dev/null 2>&1; then verdict=valid; else verdict=refused; fi
  "$bin/moya-cli" import openapi "$out/$name.openapi.json" -o "$out/$name.again.yaml" >/dev/null 2>&1
  again=$?
  set -e
  differ=$(diff <(tail -n +2 "$spec" | grep -v '\$ref') <(tail -n +2 "$out/$name.again.yaml" | grep -v '\$ref') | grep -c '^[<>]' || true)
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$(count "$file")" "$(count "$spec")" \
    "$imported" "$validated" "$checked" "$exported" "$verdict" "$again" "$differ"
done
