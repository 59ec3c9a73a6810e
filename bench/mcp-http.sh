#!/usr/bin/env bash
# `moya-cli mcp --http` under load (issue 56; goal: a stubbed tools/call at least 2,000 calls/s
# with 16 concurrent clients, p99 under 20 ms, memory flat over 100,000 calls), beside
# FastMCP's HTTP server on the same service:
# 1. moya-cli, the tool stubbed (bench.user's sample), stateless at 2026-07-28;
# 2. moya-cli, the same tool live against bench-server's /json;
# 3. FastMCP (PyPI fastmcp in $FASTMCP_PYTHON's environment), the same tool made from the
#    service's OpenAPI export, live against the same /json, stateless with JSON answers.
# 4. moya-cli stubbed again, with 1,000 idle attacker sockets held open from 127.0.0.2 the
#    whole run (bench/idle_sockets.py reopens each one the server closes).
# wrk -t2 -c16 for $DURATION each, $ROUNDS rounds; moya-cli's resident memory after a warm-up
# and again after 100,000 more calls. Every answer is checked: a status, a result, no error.
# ATTACKED_ONLY=1 runs 1 and 4 alone.
set -euo pipefail
cd "$(dirname "$0")/.."
port=${BENCH_PORT:-18080}
mcp_port=${MCP_PORT:-18191}
fast_port=${FAST_PORT:-18192}
rounds=${ROUNDS:-3}
duration=${DURATION:-10s}
fastmcp=${FASTMCP_PYTHON:-python3}
command -v wrk > /dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
mkdir -p bench/out/mcp-http
source bench/serve.sh bench-server moya-cli moya-cli-tools
out=bench/out/mcp-http

envelope='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}'
modern=$'MCP-Protocol-Version: 2026-07-28\nMcp-Method: tools/call\nMcp-Name: bench.user'

start_moya() { # $1: extra flags
  "$bin/moya-cli" mcp --specs bench/specs/bench.yaml --only bench.user --http "127.0.0.1:$mcp_port" $1 \
    2> "$out/moya.log" &
  moya=$!
  for _ in $(seq 100); do grep -q "tools on http" "$out/moya.log" 2> /dev/null && break; sleep 0.05; done
}
stop_moya() { kill "$moya" 2> /dev/null || true; wait "$moya" 2> /dev/null || true; }
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status"; }
load() { # name, url, duration, body, headers
  MCP_BODY=$4 MCP_HEADERS=$5 wrk -t2 -c16 -d"$3" --latency -s bench/mcp-http.lua "$2" > "$out/wrk.txt"
  rps=$(awk '/^Requests\/sec/ { print $2 }' "$out/wrk.txt")
  p50=$(awk '$1 == "50%" { print $2 }' "$out/wrk.txt")
  p99=$(awk '$1 == "99%" { print $2 }' "$out/wrk.txt")
  calls=$(awk '/requests in/ { print $1 }' "$out/wrk.txt")
  failed=$(awk '/^failed-responses/ { print $2 }' "$out/wrk.txt")
  echo "$1 $rps $p50 $p99 $calls $failed" | tee -a "$out/results.txt"
}

summary() {
python3 - "$out/results.txt" <<'PY'
import statistics, sys
def ms(text):
    for unit, scale in (("us", 0.001), ("ms", 1.0), ("s", 1000.0)):
        if text.endswith(unit): return float(text[:-len(unit)]) * scale
rows = [line.split() for line in open(sys.argv[1]) if not line.startswith(("rss", "warm", "memory"))]
for name in ("moya-stubbed", "moya-stubbed-attacked", "moya-live", "fastmcp-live"):
    mine = [row for row in rows if row[0] == name]
    if not mine: continue
    print(f"{name}: median {statistics.median(float(r[1]) for r in mine):.0f} calls/s, "
          f"p50 {statistics.median(ms(r[2]) for r in mine):.2f} ms, p99 {statistics.median(ms(r[3]) for r in mine):.2f} ms, "
          f"{sum(int(r[5]) for r in mine)} failed of {sum(int(r[4]) for r in mine)}")
PY
}

call='{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"bench.user","arguments":{},'"$envelope"'}}'
: > "$out/results.txt"
echo "== name calls/s p50 p99 calls failed"

attacked() {
  start_moya "--stub immediate"
  python3 bench/idle_sockets.py 127.0.0.1 "$mcp_port" 1000 127.0.0.2 > "$out/attacker.log" &
  attacker=$!
  for _ in $(seq 100); do grep -q "holding" "$out/attacker.log" 2> /dev/null && break; sleep 0.05; done
  load moya-stubbed-attacked "http://127.0.0.1:$mcp_port/mcp" "$duration" "$call" "$modern"
  kill "$attacker"
  wait "$attacker" 2> /dev/null || true
  cat "$out/attacker.log" >&2
  stop_moya
}

if [ "${ATTACKED_ONLY:-}" = 1 ]; then
  for round in $(seq "$rounds"); do
    start_moya "--stub immediate"
    load moya-stubbed "http://127.0.0.1:$mcp_port/mcp" "$duration" "$call" "$modern"
    stop_moya
    attacked
  done
  summary
  exit 0
fi

# FastMCP, from the service's OpenAPI export, live against bench-server.
"$bin/moya-cli" export openapi bench --specs bench/specs > "$out/bench.openapi.json"
"$fastmcp" bench/fastmcp_http.py "$out/bench.openapi.json" "http://127.0.0.1:$port" "$fast_port" \
  > "$out/fastmcp.log" 2>&1 &
fast=$!
trap 'kill $server $fast 2>/dev/null || true; stop_moya' EXIT
fast_body=$(curl -s -X POST "http://127.0.0.1:$fast_port/mcp" -H 'Content-Type: application/json' \
  -H 'Accept: application/json, text/event-stream' \
  -d '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}' --retry 50 --retry-connrefused --retry-delay 0 |
  python3 -c 'import json, sys; tools = json.load(sys.stdin)["result"]["tools"]; print(next(t["name"] for t in tools if t["name"].lower().startswith("user")))')
fast_call='{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"'"$fast_body"'","arguments":{}}}'

for round in $(seq "$rounds"); do
  start_moya "--stub immediate"
  load moya-stubbed "http://127.0.0.1:$mcp_port/mcp" "$duration" "$call" "$modern"
  stop_moya
  attacked
  start_moya ""
  load moya-live "http://127.0.0.1:$mcp_port/mcp" "$duration" "$call" "$modern"
  stop_moya
  load fastmcp-live "http://127.0.0.1:$fast_port/mcp" "$duration" "$fast_call" $'MCP-Protocol-Version: 2025-06-18'
done

echo "== memory: moya-cli stubbed, after 10 s of warm-up, then after 100,000 more calls"
start_moya "--stub immediate"
load warm-up "http://127.0.0.1:$mcp_port/mcp" 10s "$call" "$modern" > /dev/null
before=$(rss "$moya")
total=0
while [ "$total" -lt 100000 ]; do
  load memory "http://127.0.0.1:$mcp_port/mcp" 10s "$call" "$modern" > /dev/null
  total=$((total + $(awk '/requests in/ { print $1 }' "$out/wrk.txt")))
done
after=$(rss "$moya")
echo "rss-kb $before $after after $total calls" | tee -a "$out/results.txt"
stop_moya

summary
