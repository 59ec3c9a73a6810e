#!/usr/bin/env bash
# What the `Moya` layer costs over MoyaCore: N immediate stubs, then N live GETs of
# bench-server on loopback, one after another, through each, side by side in hyperfine.
set -euo pipefail
cd "$(dirname "$0")/.."
# moya-bench links FoundationNetworking statically, which needs libcurl's archive.
if ! dpkg -s libcurl4-openssl-dev > /dev/null 2>&1; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libcurl4-openssl-dev > /dev/null
fi
mkdir -p bench/out
port=${BENCH_PORT:-18083}
stubs=${BENCH_STUBS:-100000}
live=${BENCH_LIVE:-2000}
runs=${BENCH_RUNS:-10}

source bench/serve.sh moya-bench bench-server

hyperfine --warmup 2 --runs "$runs" --export-json bench/out/moya-stub.json \
  "$bin/moya-bench core-stub $stubs" "$bin/moya-bench moya-stub $stubs"
hyperfine --warmup 2 --runs "$runs" --export-json bench/out/moya-live.json \
  "$bin/moya-bench core-live $live $BENCH_URL" "$bin/moya-bench moya-live $live $BENCH_URL"

python3 - <<'PY'
import json, statistics
for name in ("stub", "live"):
    results = json.load(open(f"bench/out/moya-{name}.json"))["results"]
    core, moya = (statistics.median(r["times"]) * 1000 for r in results)
    print(f"{name}: MoyaCore {core:.1f} ms, Moya {moya:.1f} ms, Moya ÷ MoyaCore {moya / core:.2f}×")
PY
