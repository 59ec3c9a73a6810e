#!/usr/bin/env bash
# check --html on a 5,000-target run: each target one live check of bench-server's echo on
# loopback, so every section holds a real request and response. Times the run with and
# without the report (hyperfine), and then the report's size and how long Chromium takes to
# open it (--dump-dom). Goal: written in under 1 s, under 10 MB, opens in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
port=${BENCH_PORT:-18086}
count=${BENCH_TARGETS:-5000}
source bench/serve.sh moya-cli bench-server
moya="$bin/moya-cli"
python3 - "$count" > bench/out/html-checks.yaml <<'PY'
import sys
print("service: htmlbench")
print("baseURL: ${BENCH_URL:-http://127.0.0.1:18086}")
print("headers: { X-Api-Key: \"${BENCH_KEY:-}\" }")
print("targets:")
for n in range(int(sys.argv[1])):
    print(f"  item{n}:")
    print(f"    path: /echo/item/{n}")
    print(f"    checks: [ {{ name: n{n}, expect: {{ status: 200, json: {{ $.uri: /echo/item/{n} }} }} }} ]")
PY
export BENCH_KEY=bench-secret-value
hyperfine --warmup 1 --runs "${RUNS:-5}" -i --export-json bench/out/html-report.json \
  -n "check, no report" "$moya check bench/out/html-checks.yaml --parallel 8" \
  -n "check --junit" "$moya check bench/out/html-checks.yaml --parallel 8 --junit bench/out/report.xml" \
  -n "check --html" "$moya check bench/out/html-checks.yaml --parallel 8 --html bench/out/report.html"
ls -l bench/out/report.html | awk '{printf "report: %.1f MB\n", $5 / 1000000}'
if grep -q "$BENCH_KEY" bench/out/report.html; then echo "the report holds the secret"; exit 1; fi
if command -v chromium > /dev/null; then
  start=$(date +%s.%N)
  chromium --headless --no-sandbox --disable-gpu --dump-dom "file://$PWD/bench/out/report.html" 2> /dev/null |
    grep -c '<details class="case' | sed 's/^/sections in the DOM: /'
  echo "Chromium --dump-dom: $(echo "$(date +%s.%N) - $start" | bc) s"
fi
