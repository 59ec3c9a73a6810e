#!/usr/bin/env bash
# Weighs swift-subprocess (1.0.2, no traits) against a posix_spawn launcher like moya-cli's
# ChildProcess: clean release build time, binary size, and the time of a program that runs
# `/bin/echo` once and reads its stdout (hyperfine, 300 runs, three runs, medians).
set -euo pipefail
cd "$(dirname "$0")/subprocess"
rm -rf .build
start=$(date +%s.%N); swift build -c release --product ours > /dev/null; mid=$(date +%s.%N)
swift build -c release --product library > /dev/null; end=$(date +%s.%N)
echo "build ours: $(echo "$mid - $start" | bc) s; library (swift-subprocess, swift-system): $(echo "$end - $mid" | bc) s"
bin=$(swift build -c release --show-bin-path)
ls -l "$bin/ours" "$bin/library" | awk '{print $5, $9}'
json=$(mktemp)
trap 'rm -f "$json"' EXIT
for run in 1 2 3; do
  hyperfine -N -w 20 -r 300 -n ours "$bin/ours" -n swift-subprocess "$bin/library" --export-json "$json" > /dev/null
  python3 - "$json" "$run" <<'PY'
import json, sys
results = {r["command"]: r["median"] * 1000 for r in json.load(open(sys.argv[1]))["results"]}
ours, library = results["ours"], results["swift-subprocess"]
print(f"run {sys.argv[2]}: posix_spawn {ours:.2f} ms, swift-subprocess {library:.2f} ms ({library / ours:.2f}x)")
PY
done
