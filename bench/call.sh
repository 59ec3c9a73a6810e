#!/usr/bin/env bash
# Times `moya-cli call` as a whole process against curl on the same loopback URL, in one
# hyperfine run: the stubbed call, the live call, and curl's live GET.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
port=${BENCH_PORT:-18080}
url="http://127.0.0.1:$port/echo/get"

source bench/serve.sh moya-cli bench-server
"$bin/moya-cli" call bench.get --specs bench/specs > /dev/null
hyperfine -N --warmup 10 --runs 100 --export-json bench/out/call.json \
  -n curl "curl -s -o /dev/null $url" \
  -n stubbed "$bin/moya-cli call bench.get --specs bench/specs --stub immediate" \
  -n live "$bin/moya-cli call bench.get --specs bench/specs"

python3 - <<'PY'
import json
results = {r["command"]: r for r in json.load(open("bench/out/call.json"))["results"]}
curl = results["curl"]["median"]
for name in ("curl", "stubbed", "live"):
    median = results[name]["median"]
    print(f"{name:8} median {median * 1000:7.2f} ms  ratio to curl {median / curl:5.2f}x")
PY
