#!/usr/bin/env bash
# `moya-cli mcp`'s goals (bench/RESULTS.md):
# 1. Start-up: `--version` of moya-cli and of moya-cli-mcp, the same parser with the MCP SDK
#    linked in, interleaved in one hyperfine run: what linking the SDK into moya-cli would cost
#    every command.
# 2. `tools/list` on the 5,000-target spec (bench/gen-spec.py): from starting `moya-cli mcp` to
#    the first page received, and the server's peak resident memory. Goal: 200 ms, 60 MB.
# 3. A stubbed tool call against the same call as `call --stub immediate` makes, in one
#    process (mcp-bench): calls per second of each. Goal: at most 20 % more per call. Then the
#    same tool call over stdio, one request at a time, by the Python driver.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-40}
mkdir -p bench/out/mcp
built=$(bash bench/build.sh moya-cli moya-cli-tools mcp-bench)
bin=bench/out/bin
mkdir -p "$bin"
for product in moya-cli moya-cli-tools mcp-bench; do install -m 755 "$built/$product" "$bin/"; done
# moya-cli-tools, run under the name moya-cli hands mcp over with.
ln -sf moya-cli-tools "$bin/moya-cli-mcp"
strip "$bin/moya-cli" "$bin/moya-cli-tools"

echo "== start-up: moya-cli against moya-cli-mcp (the SDK linked in)"
hyperfine -N --warmup 10 --runs "$runs" --export-json bench/out/mcp/startup.json \
  -n moya-cli "$bin/moya-cli --version" -n moya-cli-mcp "$bin/moya-cli-mcp --version" > /dev/null
python3 - <<'PY'
import json
r = {x["command"]: x["median"] for x in json.load(open("bench/out/mcp/startup.json"))["results"]}
print(f"moya-cli      median {r['moya-cli'] * 1000:6.2f} ms")
print(f"moya-cli-mcp  median {r['moya-cli-mcp'] * 1000:6.2f} ms  (+{(r['moya-cli-mcp'] - r['moya-cli']) * 1000:.2f} ms)")
PY

echo "== tools/list on 5,000 targets"
python3 bench/gen-spec.py 5000 > bench/out/mcp/big.yaml
MOYA_CLI_TOOLS=$PWD/$bin/moya-cli-tools python3 bench/mcp_driver.py list "$bin/moya-cli" bench/out/mcp/big.yaml "$runs"

echo "== a stubbed tool call, in one process"
"$bin/mcp-bench" bench/specs/bench.yaml bench.user "${CALLS:-20000}"

echo "== the same tool call over stdio, one at a time"
MOYA_CLI_TOOLS=$PWD/$bin/moya-cli-tools python3 bench/mcp_driver.py calls "$bin/moya-cli" bench/specs/bench.yaml \
  "${CALLS:-2000}"
