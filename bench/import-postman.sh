#!/usr/bin/env bash
# Times `moya-cli import postman` then `validate` on a large collection (bench/gen-postman.py:
# 480 requests, about 3.6 MB; goal under 1 s), side by side with Posting's Postman import
# (`pip install posting`) in one hyperfine run, and counts the requests each carries from every
# v2.0 and v2.1 example of Postman's collection transformer (../shared/collections).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
root=$PWD/bench/out/root
make install DESTDIR="$root" > /dev/null
moya=$root/usr/local/bin/moya-cli
big=bench/out/big.postman_collection.json
python3 bench/gen-postman.py > "$big"
echo "collection: $(wc -c < "$big") bytes, $(grep -c '"method"' "$big") requests"
out=bench/out/postman
commands=(-n moya "sh -c 'rm -rf $out/moya && $moya import postman $big -o $out/moya/ 2>/dev/null && $moya validate $out/moya > /dev/null'")
if command -v posting > /dev/null; then
  commands+=(-n posting "sh -c 'rm -rf $out/posting && posting import -t postman $big -o $out/posting > /dev/null'")
else
  echo "no Posting (pip install posting)" >&2
fi
hyperfine -N --warmup 1 --runs "${RUNS:-10}" --export-json bench/out/import-postman.json "${commands[@]}"
python3 - <<'PY'
import json
for r in json.load(open("bench/out/import-postman.json"))["results"]:
    print(f'{r["command"]:8} median {r["median"] * 1000:8.1f} ms')
PY

# Requests carried, per example: moya-cli's targets (its report) and Posting's request files.
shared=../shared/collections/postman-transformer
[ -d "$shared" ] || { echo "no $shared: the corpus counts are left out"; exit 0; }
printf '%-40s %8s %8s %8s\n' example requests moya posting
for file in "$shared"/v2.0.0/*.json "$shared"/v2.1.0/*.json; do
  name=$(basename "$(dirname "$file")")/$(basename "$file")
  requests=$(python3 -c 'import json,sys
def count(items): return sum(count(i["item"]) if "item" in i else 1 for i in items or [])
print(count(json.load(open(sys.argv[1])).get("item")))' "$file")
  rm -rf "$out/corpus" && mkdir -p "$out/corpus"
  "$moya" import postman "$file" -o "$out/corpus/moya/" --report "$out/corpus/report.json" > /dev/null 2>&1 || true
  moya_targets=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["targets"])' "$out/corpus/report.json" 2>/dev/null || echo 0)
  posting_requests=-
  if command -v posting > /dev/null; then
    posting import -t postman "$file" -o "$out/corpus/posting" > /dev/null 2>&1 || true
    posting_requests=$( (find "$out/corpus/posting" -name '*.posting.yaml' 2>/dev/null || true) | wc -l)
  fi
  printf '%-40s %8s %8s %8s\n' "$name" "$requests" "$moya_targets" "$posting_requests"
done
