#!/usr/bin/env bash
# Arazzo workflows (issue 59): `moya-cli run FILE.arazzo.yaml WORKFLOW` beside Jentic's
# arazzo-runner (PyPI, 0.9.6) on the same documents against the same `moya-cli serve` of the
# document's own OpenAPI description (its samples). For each workflow: the requests each one
# sends, as serve logs them (method, path, target, sample, status), compared line for line;
# whether each succeeds; then hyperfine's medians of both, side by side.
#
# arazzo-runner needs a server in the description (pet-coupons has none), so it reads a copy
# with `servers:` set to serve's address, made here outside the repository; moya-cli reads the
# document as it is, with the imported spec's ${..._URL} pointing at serve.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
runs=${BENCH_RUNS:-20}
port=${BENCH_PORT:-18090}
shared=${ARAZZO:-../shared/arazzo}/examples-1.0.0
command -v arazzo-runner > /dev/null || python3 -m pip install --quiet 'arazzo-runner==0.9.6'
built=$(bash bench/build.sh moya-cli moya-cli-tools)
bin=$PWD/bench/out/bin
mkdir -p "$bin"
for product in moya-cli moya-cli-tools; do install -m 755 "$built/$product" "$bin/"; done
work=$(mktemp -d)
serve=""
trap '[ -n "$serve" ] && kill $serve 2> /dev/null; rm -rf "$work"' EXIT

# document, workflow, inputs as JSON; the same inputs are moya-cli's --var NAME=VALUE.
# `pet-coupons-fixed` is the example with the two parameter names it gets wrong put right
# (`pet_tags` is the description's `tags`, `pet_id` its `petId`), which moya-cli repairs with
# a warning and arazzo-runner sends as written.
cases=(
  "pet-coupons apply-coupon {\"my_pet_tags\":\"dog\",\"quantity\":1}"
  "pet-coupons-fixed apply-coupon {\"my_pet_tags\":\"dog\",\"quantity\":1}"
  "pet-coupons buy-available-pet {\"quantity\":1,\"coupon_code\":\"X\"}"
  "pet-coupons place-order {\"pet_id\":10,\"quantity\":1,\"coupon_code\":\"X\"}"
)

"$bin/moya-cli" import arazzo "$shared/pet-coupons.arazzo.yaml" -o "$work/specs" 2> /dev/null
"$bin/moya-cli" serve "$work/specs" --port "$port" --no-auth > "$work/serve.log" 2>&1 &
serve=$!
for _ in $(seq 50); do grep -q "serving" "$work/serve.log" 2> /dev/null && break; sleep 0.1; done
variable=$(sed -n 's/^baseURL: "\${\([A-Z_]*\):-.*/\1/p' "$work"/specs/*.yaml | head -1)
export "$variable=http://127.0.0.1:$port"

# arazzo-runner's copy: the document, and the description with serve as its server.
mkdir -p "$work/runner" "$work/fixed"
cp "$shared/pet-coupons.arazzo.yaml" "$work/runner/"
sed -e 's/name: pet_tags/name: tags/' -e '/operationId: getPetCoupons/,/value:/ s/name: pet_id$/name: petId/' \
  "$shared/pet-coupons.arazzo.yaml" \
  > "$work/runner/pet-coupons-fixed.arazzo.yaml"
cp "$work/runner/pet-coupons-fixed.arazzo.yaml" "$work/fixed/"
cp "$shared/pet-coupons.openapi.yaml" "$work/fixed/"
python3 - "$shared/pet-coupons.openapi.yaml" "$work/runner/pet-coupons.openapi.yaml" "$port" <<'PY'
import sys, yaml
document = yaml.safe_load(open(sys.argv[1]))
document["servers"] = [{"url": f"http://127.0.0.1:{sys.argv[3]}"}]
yaml.safe_dump(document, open(sys.argv[2], "w"), sort_keys=False)
PY

# The requests serve logged since `mark`, without their times; serve writes its log as it
# answers, so the count waits for it to settle.
requests() { tail -n +"$(($1 + 1))" "$work/serve.log" | sed -E 's/  [0-9.]+ ms$//'; }
lines() {
  local before=-1 now
  now=$(wc -l < "$work/serve.log")
  while [ "$now" != "$before" ]; do sleep 0.3; before=$now; now=$(wc -l < "$work/serve.log"); done
  echo "$now"
}

echo "## Steps taken (serve's log), moya-cli against arazzo-runner"
commands=()
for entry in "${cases[@]}"; do
  read -r document workflow inputs <<< "$entry"
  vars=$(python3 -c 'import json,sys; print(" ".join(f"--var {k}={v}" for k, v in json.loads(sys.argv[1]).items()))' "$inputs")
  ours_mark=$(lines)
  # shellcheck disable=SC2086
  here=$shared
  [ -e "$work/fixed/$document.arazzo.yaml" ] && here=$work/fixed
  if "$bin/moya-cli" run "$here/$document.arazzo.yaml" "$workflow" $vars > "$work/ours.out" 2> /dev/null; then ours=pass; else ours=fail; fi
  mark=$(lines) && requests "$ours_mark" > "$work/ours.requests"
  (cd "$work/runner" && arazzo-runner execute-workflow "$document.arazzo.yaml" --workflow-id "$workflow" --inputs "$inputs") \
    > "$work/theirs.out" 2>&1 || true
  if grep -q "status=workflow_complete" "$work/theirs.out"; then theirs=pass; else theirs=fail; fi
  lines > /dev/null
  requests "$mark" > "$work/theirs.requests"
  if diff -u "$work/theirs.requests" "$work/ours.requests" > "$work/diff"; then same=same; else same=different; fi
  echo "- $document $workflow: moya-cli $ours, arazzo-runner $theirs; requests $same"
  if [ "$same" = same ]; then sed 's/^/    /' "$work/ours.requests"; else sed 's/^/    /' "$work/diff"; fi
  grep -o "outputs={[^}]*}" "$work/theirs.out" | head -1 | sed 's/^/    arazzo-runner /' || true
  # shellcheck disable=SC2086
  commands+=("$bin/moya-cli run $here/$document.arazzo.yaml $workflow $vars")
  commands+=("cd $work/runner && arazzo-runner execute-workflow $document.arazzo.yaml --workflow-id $workflow --inputs '$inputs'")
done

echo
echo "## Time (hyperfine, $runs runs each after 2 warm-ups, medians; both through the shell)"
# A failing workflow exits 1 (arazzo-runner's too): the time is still the run's.
hyperfine -i --warmup 2 --runs "$runs" --export-json bench/out/arazzo.json "${commands[@]}" > /dev/null
python3 - bench/out/arazzo.json "${cases[@]}" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
for index, case in enumerate(sys.argv[2:]):
    ours, theirs = results[2 * index]["median"], results[2 * index + 1]["median"]
    name = " ".join(case.split()[:2])
    print(f"- {name}: moya-cli {ours * 1000:.1f} ms, arazzo-runner {theirs * 1000:.1f} ms: {theirs / ours:.1f}x faster")
PY
