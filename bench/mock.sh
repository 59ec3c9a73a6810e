#!/usr/bin/env bash
# `moya-cli serve` under load: wrk -t1 -c32 -d10s against serve answering bench.user's small
# JSON sample, and against bench-server answering the same bytes at /json, one after the
# other in each of $ROUNDS rounds (both on this machine, sharing its cores with wrk).
# Prints each run's requests per second and p99 latency, then the medians and the ratio.
# With BASELINE=PATH, another moya-cli (an earlier build) serves too, in the same rounds, as
# "baseline". wrk comes from `apt-get install wrk`.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
port=${BENCH_PORT:-18080}
mock_port=${MOCK_PORT:-18090}
rounds=${ROUNDS:-3}
duration=${DURATION:-10s}
command -v wrk > /dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }

source bench/serve.sh bench-server moya-cli
"$bin/moya-cli" serve bench/specs --service bench --port "$mock_port" 2> bench/out/mock.log &
mock=$!
names=(bench-server serve)
baseline_port=$((mock_port + 1))
if [ -n "${BASELINE:-}" ]; then
  "$BASELINE" serve bench/specs --service bench --port "$baseline_port" 2> bench/out/mock-baseline.log &
  baseline=$!
  names+=(baseline)
fi
trap 'kill $server $mock ${baseline:-} 2>/dev/null || true' EXIT
for check_port in "$mock_port" ${BASELINE:+"$baseline_port"}; do
  for _ in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$check_port/json" && break; sleep 0.1; done
  cmp <(curl -s "http://127.0.0.1:$port/json") <(curl -s "http://127.0.0.1:$check_port/json")
done

: > bench/out/mock.txt
for round in $(seq "$rounds"); do
  for name in "${names[@]}"; do
    url="http://127.0.0.1:$port/json"
    [ "$name" = serve ] && url="http://127.0.0.1:$mock_port/json"
    [ "$name" = baseline ] && url="http://127.0.0.1:$baseline_port/json"
    wrk -t1 -c32 -d"$duration" --latency "$url" > bench/out/wrk.txt
    rps=$(awk '/^Requests\/sec/ { print $2 }' bench/out/wrk.txt)
    p99=$(awk '$1 == "99%" { print $2 }' bench/out/wrk.txt)
    echo "$name $rps $p99" | tee -a bench/out/mock.txt
  done
done

python3 - <<'PY'
import statistics
def ms(text):
    for unit, scale in (("us", 0.001), ("ms", 1.0), ("s", 1000.0)):
        if text.endswith(unit): return float(text[:-len(unit)]) * scale
rows = [line.split() for line in open("bench/out/mock.txt")]
median = {}
for name in ("bench-server", "serve", "baseline"):
    runs = [r for r in rows if r[0] == name]
    if not runs: continue
    median[name] = (statistics.median(float(r[1]) for r in runs), statistics.median(ms(r[2]) for r in runs))
    print(f"{name:12} median {median[name][0]:9.0f} req/s  p99 {median[name][1]:6.2f} ms")
print(f"serve / bench-server: {median['serve'][0] / median['bench-server'][0]:.2f}x requests per second")
if "baseline" in median:
    print(f"serve / baseline: {median['serve'][0] / median['baseline'][0]:.2f}x requests per second")
PY
