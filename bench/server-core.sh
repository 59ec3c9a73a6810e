#!/usr/bin/env bash
# Weighs HummingbirdCore 2.28.1 (with HummingbirdTLS, no traits) against SwiftNIO alone, what
# MoyaServer stands on, for one hello server: the clean release build each adds, the program's
# size, its start-up to the point of listening (hyperfine, 300 runs) and its throughput under
# wrk (-t1 -c32, 5 s), three runs each, interleaved.
set -euo pipefail
cd "$(dirname "$0")/server-core"
rm -rf .build
swift package resolve > /dev/null
start=$(date +%s.%N); swift build -c release --product ours > /dev/null; mid=$(date +%s.%N)
swift build -c release --product hummingbird > /dev/null; end=$(date +%s.%N)
echo "clean release build: ours (swift-nio, swift-nio-ssl, swift-nio-extras) $(echo "$mid - $start" | bc) s;"\
  "HummingbirdCore adds $(echo "$end - $mid" | bc) s"
bin=$(swift build -c release --show-bin-path)
ls -l "$bin/ours" "$bin/hummingbird" | awk '{print $5, $9}'
json=$(mktemp)
trap 'rm -f "$json"; kill $(jobs -p) 2>/dev/null || true' EXIT
for run in 1 2 3; do
  hyperfine -N -w 20 -r 300 -n ours "$bin/ours 0 --exit" -n hummingbird "$bin/hummingbird 0 --exit" \
    --export-json "$json" > /dev/null
  python3 - "$json" "$run" <<'PY'
import json, sys
results = {r["command"]: r["median"] * 1000 for r in json.load(open(sys.argv[1]))["results"]}
ours, hb = results["ours"], results["hummingbird"]
print(f"start-up run {sys.argv[2]}: ours {ours:.2f} ms, hummingbird {hb:.2f} ms ({hb / ours:.2f}x)")
PY
done
"$bin/ours" 18181 & ours=$!
"$bin/hummingbird" 18182 & hb=$!
sleep 1
for run in 1 2 3; do
  for name in ours:18181 hummingbird:18182; do
    rate=$(wrk -t1 -c32 -d5s "http://127.0.0.1:${name#*:}/" | awk '/Requests\/sec/ {print $2}')
    echo "throughput run $run: ${name%%:*} $rate req/s"
  done
done
