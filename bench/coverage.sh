#!/usr/bin/env bash
# Coverage, the two goals of issue 60:
# 1. Cost: the 247 checks `import openapi` writes for Asana, run live against `serve` of the
#    same spec, with and without `--coverage FILE`, side by side in one hyperfine run. The
#    difference of the medians is what coverage adds.
# 2. Agreement: schemathesis (PyPI) run against `serve --coverage` of each document, with
#    TraceCov's schemathesis hook (PyPI `tracecov`, on `tracecov-community`) counting the same
#    run. Where both count the same thing, the numbers must agree: operations against
#    targets, and response codes against statuses. Prints a row per document, and exits 1
#    when one disagrees.
# Usage: bench/coverage.sh [MAX_EXAMPLES] [DOCUMENT...]. MOYA_BIN names a folder holding
# moya-cli and moya-cli-tools to use in place of the tuned release build; AGREEMENT_ONLY=1
# leaves out the timing (CI runs the agreement on the installed moya-cli); MODE=all has
# schemathesis send invalid requests too, which serve answers with 400 problems.
set -uo pipefail
cd "$(dirname "$0")/.."
examples=${1:-5}
shift || true
corpus=../shared/openapi-real
documents=("$@")
if [ ${#documents[@]} -eq 0 ]; then
  documents=("$corpus/petstore3.yaml" "$corpus/xkcd.yaml" "$corpus/museum.yaml" "$corpus/stackexchange.yaml")
fi
bin=${MOYA_BIN:-$(bash bench/build.sh moya-cli moya-cli-tools)}
out=bench/out/coverage
rm -rf "$out"
mkdir -p "$out/bin"
cp "$bin/moya-cli" "$bin/moya-cli-tools" "$out/bin/"
moya=$out/bin/moya-cli

wait_for_port() {
  for _ in $(seq 100); do
    (echo > "/dev/tcp/127.0.0.1/$1") 2> /dev/null && return 0
    sleep 0.1
  done
  return 1
}

port=4290
: > "$out/cost.md"
if [ "${AGREEMENT_ONLY:-}" != 1 ]; then
# --- 1. The cost of counting, on Asana's 247 checks against serve.
"$moya" import openapi "$corpus/asana.yaml" -o "$out/asana.yaml" 2> /dev/null
"$moya" serve "$out/asana.yaml" --port "$port" --no-auth > "$out/asana.serve.log" 2>&1 &
server=$!
wait_for_port "$port"
base=$(sed -n 's/^baseURL: "\(.*\)"$/\1/p' "$out/asana.yaml" | sed -E 's/\$\{[A-Z0-9_]+:-([^}]*)\}/\1/g; s#^[a-z]+://[^/]*##')
url_var=$(sed -n 's/^baseURL: "\${\([A-Z0-9_]*\):-.*$/\1/p' "$out/asana.yaml")
export "$url_var=http://127.0.0.1:$port$base"
checks=("$moya" check "$out/asana.yaml" --allow-writes --allow-deletes --parallel 8)
"${checks[@]}" --coverage "$out/asana.coverage.json" > "$out/asana.check.txt" 2>&1
tail -1 "$out/asana.check.txt"
hyperfine --ignore-failure --warmup 2 --runs 20 --export-json "$out/cost.json" \
  -n "check asana (247 checks on serve)" "${checks[*]} > /dev/null 2>&1" \
  -n "check asana --coverage FILE" "${checks[*]} --coverage $out/asana.timed.json > /dev/null 2>&1"
kill "$server" 2> /dev/null
wait "$server" 2> /dev/null
python3 - "$out/cost.json" > "$out/cost.md" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
medians = [result["median"] * 1000 for result in results]
print("| command | median | min | max |\n| --- | --- | --- | --- |")
for result, median in zip(results, medians):
    print(f"| {result['command']} | {median:.1f} ms | {result['min'] * 1000:.1f} ms | {result['max'] * 1000:.1f} ms |")
print(f"\nCoverage adds {medians[1] - medians[0]:.1f} ms to the median ({medians[1] / medians[0]:.3f}x).\n")
PY
python3 - "$out/asana.coverage.json" <<'PY'
import json, sys
figures = json.load(open(sys.argv[1]))
print("asana coverage:", {k: figures[k] for k in ("percent", "targets", "statuses", "params")})
PY
fi

# --- 2. Beside TraceCov, on the same schemathesis run against serve.
cat > "$out/tracecov_hook.py" <<'PY'
import tracecov.schemathesis
tracecov.schemathesis.install()
PY
failed=0
printf '| document | operations: TraceCov | targets: moya-cli | responses: TraceCov | statuses: moya-cli | agree |\n| --- | --- | --- | --- | --- | --- |\n' > "$out/agreement.md"
for document in "${documents[@]}"; do
  name=$(basename "${document%.*}")
  spec=$out/$name.yaml
  "$moya" import openapi "$document" -o "$spec" 2> /dev/null || {
    echo "$name: import failed"
    failed=1
    continue
  }
  base=$(sed -n 's/^baseURL: "\(.*\)"$/\1/p' "$spec" | sed -E 's/\$\{[A-Z0-9_]+:-([^}]*)\}/\1/g; s#^[a-z]+://[^/]*##')
  port=$((port + 1))
  "$moya" serve "$spec" --port "$port" --no-auth --coverage "$out/$name.serve.json" > "$out/$name.serve.log" 2>&1 &
  server=$!
  wait_for_port "$port"
  PYTHONPATH=$out SCHEMATHESIS_HOOKS=tracecov_hook timeout 900 st run "$document" \
    --url "http://127.0.0.1:$port$base" --mode "${MODE:-positive}" --max-examples "$examples" --seed 1 --no-color \
    --coverage-format json --coverage-report-json-path "$out/$name.tracecov.json" > "$out/$name.st.txt" 2>&1
  kill -INT "$server" 2> /dev/null
  wait "$server" 2> /dev/null
  python3 - "$name" "$out/$name.tracecov.json" "$out/$name.serve.json" "$out/$name.diff.txt" "$base" >> "$out/agreement.md" <<'PY' || failed=1
import json, sys
name, tracecov_file, moya_file, diff_file, base = sys.argv[1:]
tracecov = json.load(open(tracecov_file))
moya = json.load(open(moya_file))
operations = tracecov["summary"]["operations"]
responses = tracecov["summary"]["responses"]
targets, statuses = moya["targets"], moya["statuses"]
# Operation by operation: the response keys each counts as covered.
theirs = {}
for operation in tracecov["operations"]:
    covered = sorted(r["status"] for r in operation["responses"] if r.get("hits", 0) > 0)
    declared = sorted(r["status"] for r in operation["responses"])
    theirs[operation["method"] + " " + operation["path"]] = (declared, covered)
ours = {}
for item in moya["items"]:
    ours[item["method"] + " " + base + item["path"]] = (sorted(s["status"] for s in item["statuses"]),
                            sorted(s["status"] for s in item["statuses"] if s["covered"]))
differences = [f"{key}: TraceCov {theirs.get(key)} moya-cli {ours.get(key)}"
               for key in sorted(set(theirs) | set(ours)) if theirs.get(key) != ours.get(key)]
open(diff_file, "w").write("\n".join(differences) + ("\n" if differences else ""))
agree = (operations["covered"], operations["total"]) == (targets["covered"], targets["total"]) and \
    (responses["covered"], responses["total"]) == (statuses["covered"], statuses["total"])
print(f"| {name} | {operations['covered']}/{operations['total']} | {targets['covered']}/{targets['total']} "
      f"| {responses['covered']}/{responses['total']} | {statuses['covered']}/{statuses['total']} "
      f"| {'yes' if agree else 'no: ' + str(len(differences)) + ' operations differ'} |")
sys.exit(0 if agree else 1)
PY
done
cat "$out/cost.md" "$out/agreement.md"
for file in "$out"/*.diff.txt; do [ -s "$file" ] && { echo "$file:"; cat "$file"; }; done
exit "$failed"
