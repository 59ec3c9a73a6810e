#!/usr/bin/env bash
# `moya-cli mcp`'s goals (bench/RESULTS.md):
# (`mcp` runs in moya-cli itself, whose start-up bench/call.sh measures.)
# 1. `tools/list` on the 5,000-target spec (bench/gen-spec.py): from starting `moya-cli mcp` to
#    the first page received, and the server's peak resident memory. Goal: 200 ms, 60 MB.
# 2. A stubbed tool call against the same call as `call --stub immediate` makes, in one
#    process (mcp-bench): calls per second of each. Goal: at most 20 % more per call. Then the
#    same tool call over stdio, one request at a time, by the Python driver.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-40}
mkdir -p bench/out/mcp
built=$(bash bench/build.sh moya-cli mcp-bench)
bin=bench/out/bin
mkdir -p "$bin"
for product in moya-cli mcp-bench; do install -m 755 "$built/$product" "$bin/"; done
strip "$bin/moya-cli"

echo "== tools/list on 5,000 targets"
python3 bench/gen-spec.py 5000 > bench/out/mcp/big.yaml
python3 bench/mcp_driver.py list "$bin/moya-cli" bench/out/mcp/big.yaml "$runs"

echo "== a stubbed tool call, in one process"
"$bin/mcp-bench" bench/specs/bench.yaml bench.user "${CALLS:-20000}"

echo "== the same tool call over stdio, one at a time"
python3 bench/mcp_driver.py calls "$bin/moya-cli" bench/specs/bench.yaml \
  "${CALLS:-2000}"
