#!/usr/bin/env bash
# Issue 22's goals, on the tuned release build:
# 1. serve holds 10,000 idle connections (descriptor limit raised) and, under the default
#    1,024, stays under its cap with 1,100 idle connections held; each time, a normal client's
#    request is timed (median of 20 curl requests).
# 2. import openapi of a 250- and a 500-level schema ends within 2 s (hyperfine), beside
#    openapi-spec-validator on the same documents.
# 3. a 404 on a 5,000-target spec against a 200 on it: wrk -t1 -c8, medians of $ROUNDS rounds.
# wrk and hyperfine come from apt-get; openapi-spec-validator from pip.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
rounds=${ROUNDS:-3}
port=${MOCK_PORT:-18095}
built=$(bash bench/build.sh moya-cli moya-cli-tools)
bin=bench/out/bin
mkdir -p "$bin"
for product in moya-cli moya-cli-tools; do install -m 755 "$built/$product" "$bin/"; done
out=bench/out/trust.txt
: > "$out"

# A normal client's request beside `count` idle connections, under `ulimit -n limit`.
idle() {
  local limit=$1 count=$2
  (ulimit -n "$limit"; exec "$bin/moya-cli" serve bench/specs --service bench --port "$port") 2> bench/out/idle.log &
  local serve=$!
  for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$port/json" && break; sleep 0.1; done
  python3 - "$port" "$count" "$serve" "$limit" <<'PY' | tee -a "$out"
import os, resource, socket, statistics, subprocess, sys, time
port, count, pid, limit = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]; resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
held = []
for _ in range(count):
    try: held.append(socket.create_connection(("127.0.0.1", port)))
    except OSError: break
time.sleep(1)
times = []
for _ in range(20):
    t = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{time_total} %{http_code}",
                        f"http://127.0.0.1:{port}/json"], capture_output=True, text=True).stdout.split()
    times.append(float(t[0]) * 1000); assert t[1] == "200", t
fds = len(os.listdir(f"/proc/{pid}/fd"))
cpu = subprocess.run(["ps", "-o", "pcpu=", "-p", pid], capture_output=True, text=True).stdout.strip()
print(f"idle ulimit={limit} held={len(held)} serve_fds={fds} cpu={cpu}% normal_client_median_ms={statistics.median(times):.2f} max_ms={max(times):.2f}")
PY
  kill $serve; wait $serve 2>/dev/null || true
}
idle 12000 10000
idle 1024 1100

# Deep documents.
python3 - <<'PY'
def deep(n):
    s = '{"type":"string"}'
    for _ in range(n): s = '{"type":"object","properties":{"a":' + s + '}}'
    return ('{"openapi":"3.1.0","info":{"title":"deep","version":"1"},"paths":{"/x":{"get":{"responses":'
            '{"200":{"description":"ok","content":{"application/json":{"schema":' + s + '}}}}}}}}')
for n in (250, 500): open(f"bench/out/deep{n}.json", "w").write(deep(n))
PY
hyperfine -N -i --warmup 2 --runs 20 --export-json bench/out/deep.json \
  "$bin/moya-cli import openapi bench/out/deep250.json" "$bin/moya-cli import openapi bench/out/deep500.json" \
  "openapi-spec-validator bench/out/deep250.json" | tee -a "$out"

# 404 against 200 on 5,000 targets.
python3 - <<'PY'
lines = ["service: big", "baseURL: http://127.0.0.1:4010", "targets:"]
for i in range(5000):
    lines += [f"  t{i}:", f"    path: /resource{i}/items/{{id}}", "    params: { id: int }",
              "    sample: { json: { id: \"{id}\" } }"]
open("bench/out/big-serve.yaml", "w").write("\n".join(lines) + "\n")
PY
"$bin/moya-cli" serve bench/out/big-serve.yaml --port "$port" 2> bench/out/big.log &
serve=$!
trap 'kill $serve 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
: > bench/out/notfound.txt
for round in $(seq "$rounds"); do
  for name in 200 404-near 404-far; do
    case $name in
      200) path=/resource2500/items/7 ;;
      404-near) path=/resourc2500/itemz/7 ;;
      404-far) path=/totally/different/path/here ;;
    esac
    wrk -t1 -c8 -d5s --latency "http://127.0.0.1:$port$path" > bench/out/wrk.txt
    echo "$name $(awk '/^Requests\/sec/ { print $2 }' bench/out/wrk.txt) $(awk '$1 == "50%" { print $2 }' bench/out/wrk.txt)" \
      | tee -a bench/out/notfound.txt
  done
done
python3 - <<'PY' | tee -a "$out"
import statistics
rows = [line.split() for line in open("bench/out/notfound.txt")]
rps = {n: statistics.median(float(r[1]) for r in rows if r[0] == n) for n in ("200", "404-near", "404-far")}
for n, v in rps.items(): print(f"{n:9} median {v:8.0f} req/s  cost {1e6 / v:7.1f} us  ({rps['200'] / v:.2f}x a 200)")
PY
