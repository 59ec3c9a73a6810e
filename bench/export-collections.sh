#!/usr/bin/env bash
# Times `moya-cli export postman` and `export http` of a large spec (bench/gen-postman.py's
# collection of 480 requests, imported), and the round trip `export postman` then
# `import postman`, in one hyperfine run. With POSTMAN_SCHEMAS set to a clone of
# postmanlabs/schemas (outside this repository; its schema is not vendored), it also holds
# every collection exported here (the large one, the bundled specs', and each Postman
# transformer example's round trip) to Postman's v2.1.0 JSON Schema (draft-07), with Python's
# jsonschema.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
root=$PWD/bench/out/root
make install DESTDIR="$root" > /dev/null
moya=$root/usr/local/bin/moya-cli
out=$PWD/bench/out/export
rm -rf "$out" && mkdir -p "$out/specs" "$out/http"
big=bench/out/big.postman_collection.json
python3 bench/gen-postman.py > "$big"
"$moya" import postman "$big" --service big -o "$out/specs/big.yaml" 2> /dev/null
echo "spec: $(grep -c '^  [A-Za-z]' "$out/specs/big.yaml") targets, $(wc -c < "$out/specs/big.yaml") bytes"
hyperfine -N --warmup 1 --runs "${RUNS:-10}" --export-json bench/out/export-collections.json \
  -n "export postman" "$moya export postman big --specs $out/specs -o $out/big.json" \
  -n "export http" "$moya export http big --specs $out/specs -o $out/http/big.http" \
  -n "round trip" "sh -c '$moya export postman big --specs $out/specs -o $out/trip.json 2>/dev/null && $moya import postman $out/trip.json --service big -o $out/trip.yaml 2>/dev/null'"
python3 - <<'PY'
import json
for r in json.load(open("bench/out/export-collections.json"))["results"]:
    print(f'{r["command"]:15} median {r["median"] * 1000:8.1f} ms')
PY

[ -n "${POSTMAN_SCHEMAS:-}" ] || { echo "no POSTMAN_SCHEMAS: the schema check is left out"; exit 0; }
# The collections to hold to the schema: the large one, the bundled specs', and each
# transformer example imported and exported again.
for service in github httpbin myservice translator; do
  "$moya" export postman "$service" --specs specs -o "$out/$service.json" 2> /dev/null
done
shared=../shared/collections/postman-transformer
if [ -d "$shared" ]; then
  for file in "$shared"/v2.0.0/*.json "$shared"/v2.1.0/*.json; do
    name=$(basename "$(dirname "$file")")-$(basename "$file" .json)
    rm -rf "$out/corpus" && mkdir -p "$out/corpus"
    "$moya" import postman "$file" --service corpus -o "$out/corpus/corpus.yaml" > /dev/null 2>&1 || continue
    "$moya" export postman corpus --specs "$out/corpus" -o "$out/$name.json" 2> /dev/null
  done
fi
python3 - "$POSTMAN_SCHEMAS" "$out" <<'PY'
import glob, json, os, subprocess, sys
import jsonschema
repo, out = sys.argv[1], sys.argv[2]
base = "schemas/draft-07/v2.1.0/"
def show(path):
    text = subprocess.check_output(["git", "-C", repo, "show", "HEAD:" + path]).decode()
    # The schema's parts hold `//` comment lines, which JSON has not.
    return json.loads("\n".join(l for l in text.split("\n") if not l.strip().startswith("//")))
schema = show(base + "collection.json")
schema.pop("$id", None)
schema.setdefault("definitions", {})
for path in subprocess.check_output(["git", "-C", repo, "ls-tree", "--name-only", "HEAD", base + "collection/"]).decode().split():
    part = show(path)
    part.pop("$id", None)
    schema["definitions"][os.path.basename(path)[:-5]] = part
validator = jsonschema.Draft7Validator(schema)
assert list(validator.iter_errors({"info": {"name": "x"}, "item": [{"request": {"method": 5}}]})), "the schema rejects nothing"
files = sorted(glob.glob(out + "/*.json"))
invalid = [(f, e.message) for f in files for e in list(validator.iter_errors(json.load(open(f))))[:1]]
for f, message in invalid:
    print(f"invalid: {os.path.basename(f)}: {message[:160]}")
commit = subprocess.check_output(["git", "-C", repo, "rev-parse", "--short", "HEAD"]).decode().strip()
print(f"{len(files)} exported collections, {len(invalid)} invalid by Postman's v2.1.0 schema (postmanlabs/schemas {commit})")
PY
