#!/usr/bin/env bash
# Times `moya-cli call` as a whole process against curl on the same loopback URL, in one
# hyperfine run: the stubbed call, the live call, and curl's live GET.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
port=${BENCH_PORT:-18080}
url="http://127.0.0.1:$port/echo/get"

built=$(bash bench/build.sh moya-cli bench-server)
# Time installed copies: a binary straight out of the linker measured up to 0.7 ms slower to
# start than the same bytes copied, as an installed binary would be.
bin=bench/out/bin
mkdir -p "$bin"
install -m 755 "$built/moya-cli" "$built/bench-server" "$bin/"

"$bin/bench-server" "$port" > bench/out/server.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -sf -o /dev/null "$url" && break; sleep 0.1; done

export BENCH_URL="http://127.0.0.1:$port"
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
