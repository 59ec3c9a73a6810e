#!/usr/bin/env bash
# The one-runtime change against the binary before it, side by side in one hyperfine run per
# case (and alternating wrk rounds for serve), both as installed copies of the tuned release:
# the stubbed, live and lazy calls (a 5,000-target spec named by its directory and by its
# file), 1,000 live checks, 200 five-step flows beside Tavern, and serve's requests per second.
# OLD names the previous moya-cli binary, built with scripts/build-release.sh from the commit
# before (a git worktree is the easy way). Run bench/check.sh and bench/flow.sh once first:
# their specs (bench/out/checks.yaml, flows.yaml, test_flows.tavern.yaml) are reused.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${OLD:?set OLD to the previous moya-cli binary}"
port=${BENCH_PORT:-18083}
runs=${RUNS:-60}
rounds=${ROUNDS:-3}
source bench/serve.sh moya-cli bench-server
mkdir -p bench/out/old
install -m 755 "$OLD" bench/out/old/moya-cli
old=bench/out/old/moya-cli
new=$bin/moya-cli
for file in checks.yaml flows.yaml test_flows.tavern.yaml; do
  [ -f "bench/out/$file" ] || { echo "bench/out/$file is missing: run bench/check.sh and bench/flow.sh" >&2; exit 1; }
done
# The check and flow specs name their own ports; point them at this server.
sed -i "s|http://127.0.0.1:[0-9]*|$BENCH_URL|g" bench/out/test_flows.tavern.yaml

mkdir -p bench/out/lazy/large
python3 bench/gen-spec.py 5000 > bench/out/lazy/large/big.yaml
lazy="call big.target4000 --id 1 --stub immediate --specs"

pair() { # NAME ARGS...: old and new, interleaved
  local name=$1
  shift
  hyperfine -N --warmup 3 --runs "$runs" --export-json "bench/out/runtime-$name.json" \
    -n "old" "$old $*" -n "new" "$new $*" > /dev/null
  python3 - "$name" <<'PY'
import json, sys
name = sys.argv[1]
r = {x["command"]: x["median"] for x in json.load(open(f"bench/out/runtime-{name}.json"))["results"]}
print(f"{name:14} old {r['old'] * 1000:8.2f} ms  new {r['new'] * 1000:8.2f} ms  new/old {r['new'] / r['old']:5.2f}x")
PY
}
pair stubbed call bench.get --specs bench/specs --stub immediate
pair live call bench.get --specs bench/specs
pair lazy-dir $lazy bench/out/lazy/large
pair lazy-file $lazy bench/out/lazy/large/big.yaml
runs=5 pair checks check bench/out/checks.yaml --parallel 8
runs=5 pair flows check bench/out/flows.yaml --parallel 8
if command -v pytest > /dev/null; then
  hyperfine -N --warmup 1 --runs 5 --export-json bench/out/runtime-tavern.json \
    -n tavern "sh -c 'cd bench/out && pytest -q -p no:cacheprovider test_flows.tavern.yaml'" > /dev/null
  python3 -c "import json; r = json.load(open('bench/out/runtime-tavern.json'))['results'][0]; print(f\"tavern flows   {r['median'] * 1000:8.2f} ms\")"
fi

# serve: wrk -t1 -c32 for 5 s against each in turn, ROUNDS times.
for round in $(seq "$rounds"); do
  for name in old new; do
    binary=$old
    [ "$name" = new ] && binary=$new
    "$binary" serve bench/specs --service bench --port $((port + 1)) 2> /dev/null &
    mock=$!
    for _ in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$((port + 1))/json" && break; sleep 0.1; done
    rps=$(wrk -t1 -c32 -d5s "http://127.0.0.1:$((port + 1))/json" | awk '/^Requests\/sec/ { print $2 }')
    kill $mock
    wait $mock 2> /dev/null || true
    echo "serve $name round $round: $rps requests/s"
  done
done
