#!/usr/bin/env bash
# Times `moya-cli check` on 1,000 live checks against bench-server on loopback, in one
# hyperfine run with the same 1,000 requests made by `xargs -P 8 curl`, and measures the
# check run's peak memory.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
port=${BENCH_PORT:-18081}
count=${BENCH_CHECKS:-1000}

built=$(bash bench/build.sh moya-cli bench-server)
bin=bench/out/bin
mkdir -p "$bin"
install -m 755 "$built/moya-cli" "$built/bench-server" "$bin/"

# One service, 100 targets with 10 checks each: a GET of /echo/item/N that must answer 200
# with a JSON body whose uri is that path.
python3 - "$count" > bench/out/checks.yaml <<'PY'
import sys
count = int(sys.argv[1])
print("service: checkbench")
print("baseURL: ${BENCH_URL:-http://127.0.0.1:18081}")
print("targets:")
per_target = 10
for target in range((count + per_target - 1) // per_target):
    print(f"  item{target}:")
    print("    params: { id: int }")
    print("    path: /echo/item/{id}")
    print("    checks:")
    for index in range(per_target):
        n = target * per_target + index
        if n >= count:
            break
        print(f"      - {{ name: n{n}, params: {{ id: {n} }}, expect: {{ status: 200, json: {{ $.uri: /echo/item/{n} }} }} }}")
PY
seq 0 $((count - 1)) | sed "s|^|http://127.0.0.1:$port/echo/item/|" > bench/out/urls.txt

"$bin/bench-server" "$port" > bench/out/server.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$port/echo/ready" && break; sleep 0.1; done

export BENCH_URL="http://127.0.0.1:$port"
"$bin/moya-cli" check bench/out/checks.yaml > bench/out/check.txt
tail -1 bench/out/check.txt
hyperfine -N --warmup 2 --runs 15 --export-json bench/out/check.json \
  -n "xargs -P 8 curl" "xargs -a bench/out/urls.txt -P 8 -n 1 curl -s -o /dev/null" \
  -n "moya-cli check" "$bin/moya-cli check bench/out/checks.yaml"

/usr/bin/time -f "%M" -o bench/out/check-rss.txt "$bin/moya-cli" check bench/out/checks.yaml > /dev/null

python3 - <<'PY'
import json
results = {r["command"]: r for r in json.load(open("bench/out/check.json"))["results"]}
curl = results["xargs -P 8 curl"]["median"]
check = results["moya-cli check"]["median"]
print(f"xargs -P 8 curl  median {curl * 1000:8.1f} ms")
print(f"moya-cli check   median {check * 1000:8.1f} ms  {curl / check:5.1f}x faster than curl")
print(f"moya-cli check   peak RSS {int(open('bench/out/check-rss.txt').read().split()[-1]) / 1024:.1f} MiB")
PY
