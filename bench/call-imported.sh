#!/usr/bin/env bash
# `call --stub immediate` on the largest shared description after import, whatever the spec
# file is called: ../shared/openapi-real/asana.yaml (3 MB, 29,000 spec lines) imported with
# `-o specs/some-other-name.yaml` (so the file is not named after its service, and the
# document's copy beside it, asana.yaml, is), against the same target cut into a one-target
# spec named after its service. Both are found through `--specs DIR`. Goal: the large call at
# most 1.3x the one-target one. RUNS=3 hyperfine runs, each interleaving the two; every run's
# medians and ratio are printed, and the goal is judged on the median run.
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${SHARED:-../shared}
document="$shared/openapi-real/asana.yaml"
[ -f "$document" ] || { echo "call-imported: no $document" >&2; exit 1; }
out=bench/out/call-imported
rm -rf "$out"
mkdir -p "$out/large" "$out/small"

built=$(bash bench/build.sh moya-cli moya-cli-tools)
moya="$built/moya-cli"

"$moya" import openapi "$document" -o "$out/large/some-other-name.yaml" 2> /dev/null
# The header and the one target, as import wrote them; its schema names the document, which
# the small spec's folder holds too.
python3 - "$out" <<'PY'
import sys
out = sys.argv[1]
lines = open(f"{out}/large/some-other-name.yaml").read().split("\n")
kept, keep = [], True
for line in lines:
    if line.startswith("  ") and not line.startswith("   ") and line.endswith(":"):
        keep = line == "  getAccessRequests:"
    if keep or not line.startswith("  "):
        kept.append(line)
open(f"{out}/small/asana.yaml", "w").write("\n".join(kept))
PY
cp "$out/large/asana.yaml" "$out/small/asana.openapi.yaml"
sed -i 's#"asana.yaml\##"asana.openapi.yaml\##' "$out/small/asana.yaml"
call="$moya call asana.getAccessRequests --target 1 --stub immediate --specs"
cmp <($call "$out/small") <($call "$out/large")
echo "large spec: $(wc -l < "$out/large/some-other-name.yaml") lines; small: $(wc -l < "$out/small/asana.yaml")" >&2

for run in $(seq "${RUNS:-3}"); do
  hyperfine -N --warmup 3 --runs "${CALLS:-40}" --export-json "$out/run-$run.json" \
    -n one-target "$call $out/small" -n imported "$call $out/large" > /dev/null
done
python3 - "$out" "${RUNS:-3}" <<'PY'
import json, statistics, sys
out, runs = sys.argv[1], int(sys.argv[2])
ratios = []
for n in range(1, runs + 1):
    r = {x["command"]: x["median"] for x in json.load(open(f"{out}/run-{n}.json"))["results"]}
    ratios.append(r["imported"] / r["one-target"])
    print(f"run {n}: one-target {r['one-target'] * 1000:6.2f} ms, imported {r['imported'] * 1000:6.2f} ms, "
          f"{ratios[-1]:.2f}x")
print(f"median run: {statistics.median(ratios):.2f}x (goal at most 1.30x)")
PY
