#!/usr/bin/env bash
# Streams (issue 78), against bench/sse_server.py on 127.0.0.1, side by side with curl -N:
# - latency: 1,000 SSE events 2 ms apart, each carrying the wall clock when the server wrote
#   it; bench/stream_latency.py reads the client's stdout through a pipe and prints the median
#   and p99 of (read time - write time). Goal: moya-cli's median within 5 ms.
# - throughput: 100,000 small events through `call --events json` against `curl -N | cat`
#   (hyperfine). Goal: moya-cli at no less than 50 % of curl's rate.
# - memory (MEMORY=1): a 10-minute stream of 1 KiB events every 10 ms; RSS sampled each
#   second. Goal: the last RSS within 10 % of the first minute's.
# RUNS sets hyperfine's runs (10); MEMORY_ONLY=1 runs the memory part alone.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
port=${BENCH_STREAM_PORT:-18091}
export BENCH_STREAM_PORT=$port
runs=${RUNS:-10}
bin=$(bash scripts/build-release.sh moya-cli)
moya="$bin/moya-cli"
specs=bench/specs-streams
python3 bench/sse_server.py "$port" &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/burst/1" && break; sleep 0.1; done
url="http://127.0.0.1:$port"

if [ "${MEMORY_ONLY:-}" != 1 ]; then
# The outputs first: every event, in order.
count=$("$moya" call streams.burst --events json --specs "$specs" | python3 -c '
import json, sys
ns = [json.loads(line)["data"]["n"] for line in sys.stdin]
assert ns == list(range(100000)), len(ns)
print(len(ns))')
echo "call --events json: $count events, in order"

echo "latency: 1000 events 2 ms apart, written to stdout and read through a pipe"
"$moya" call streams.timed --specs "$specs" | python3 bench/stream_latency.py "moya-cli call"
curl -sN "$url/timed/1000/2" | python3 bench/stream_latency.py "curl -N"

hyperfine --warmup 1 --runs "$runs" --export-json bench/out/streams.json \
  -n "curl -N | cat (100,000 events)" "curl -sN $url/burst/100000 | cat > /dev/null" \
  -n "moya-cli call --events json | cat" "$moya call streams.burst --events json --specs $specs | cat > /dev/null" \
  -n "moya-cli call (data) | cat" "$moya call streams.burst --specs $specs | cat > /dev/null"
python3 - <<'PY'
import json
results = json.load(open("bench/out/streams.json"))["results"]
curl = results[0]["median"]
for result in results:
    print(f"median {result['median'] * 1000:7.1f} ms  {result['median'] / curl:5.2f}x curl  "
          f"{100 * curl / result['median']:5.1f} % of curl's rate  {result['command']}")
PY
fi

if [ "${MEMORY:-}" = 1 ] || [ "${MEMORY_ONLY:-}" = 1 ]; then
  "$moya" call streams.forever --specs "$specs" > /dev/null &
  client=$!
  : > bench/out/stream-rss.txt
  while kill -0 $client 2>/dev/null; do
    awk '/VmRSS/ {print $2}' "/proc/$client/status" 2>/dev/null >> bench/out/stream-rss.txt || true
    sleep 1
  done
  python3 - <<'PY'
rss = [int(line) for line in open("bench/out/stream-rss.txt") if line.strip()]
first = max(rss[:60])
last = rss[-1]
print(f"RSS over {len(rss)} s: first minute's highest {first / 1024:.1f} MiB, last {last / 1024:.1f} MiB, "
      f"highest {max(rss) / 1024:.1f} MiB; last/first {last / first:.3f}")
PY
fi
