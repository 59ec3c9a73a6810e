#!/usr/bin/env bash
# serve under hostile patterns (issue 39): 200 requests whose JSON body makes a schema
# `pattern` backtrack (lookaround, on 5,000 characters), 16 at a time, while a normal request
# is timed every 100 ms; serve's thread count is sampled throughout. The pattern runs on
# MoyaRegex's backtracker under its step budget, on the caller's thread: no thread is started
# or abandoned, so the count must stay flat, and the normal request must stay fast. One
# hostile request first starts serve's pool for request bodies. MOYA_BIN runs another binary
# (an earlier one, say) instead of this build's.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out/serve-patterns
built=$(bash bench/build.sh moya-cli)
bin=bench/out/bin
mkdir -p "$bin"
install -m 755 "$built/moya-cli" "$bin/"
port=${BENCH_PORT:-18090}
work=bench/out/serve-patterns
cat > "$work/hostile.yaml" <<YAML
service: hostile
baseURL: http://127.0.0.1:$port
targets:
  post:
    method: POST
    path: /things
    requestSchema: { type: object, properties: { name: { type: string, pattern: "^(?=(a|aa)+b)" } } }
    sample: { status: 201, json: { ok: true } }
  ping:
    path: /ping
    sample: pong
YAML
python3 -c 'import json; print(json.dumps({"name": "a" * 5000 + "!"}))' > "$work/body.json"

"${MOYA_BIN:-$bin/moya-cli}" serve "$work/hostile.yaml" --port "$port" 2> "$work/serve.log" &
serve=$!
trap 'kill $serve 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$port/ping" && break; sleep 0.1; done
threads() { awk '/^Threads:/ { print $2 }' "/proc/$serve/status"; }
curl -s -o /dev/null -X POST -H 'Content-Type: application/json' --data-binary @"$work/body.json" \
  "http://127.0.0.1:$port/things"
before=$(threads)

# The storm, in the background; the thread count and a normal request's time meanwhile.
seq 200 | xargs -P 16 -I{} curl -s -o /dev/null -w '%{http_code}\n' -X POST -H 'Content-Type: application/json' \
  --data-binary @"$work/body.json" "http://127.0.0.1:$port/things" > "$work/codes.txt" &
storm=$!
most=$before
: > "$work/ping.txt"
while kill -0 $storm 2>/dev/null; do
  now=$(threads)
  [ "$now" -gt "$most" ] && most=$now
  curl -s -o /dev/null -w '%{time_total}\n' "http://127.0.0.1:$port/ping" >> "$work/ping.txt"
  sleep 0.1
done
wait $storm || true
after=$(threads)

echo "hostile requests answered: $(wc -l < "$work/codes.txt") ($(sort "$work/codes.txt" | uniq -c | tr -s ' ' | tr '\n' ';'))"
echo "serve threads: before $before, most during $most, after $after"
python3 - "$work/ping.txt" <<'PY'
import sys
times = sorted(float(x) * 1000 for x in open(sys.argv[1]) if x.strip())
if times:
    print(f"normal request during the storm: {len(times)} timed, median {times[len(times) // 2]:.1f} ms, "
          f"slowest {times[-1]:.1f} ms")
PY
