#!/usr/bin/env bash
# Peak memory of a large body piped to /dev/null: moya-cli call, curl, xh and HTTPie each
# fetch the same body from bench-server on loopback; GNU time reports the peak RSS.
# BYTES sets the size (1 GiB by default).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
port=${BENCH_PORT:-18081}
bytes=${BYTES:-1073741824}
url="http://127.0.0.1:$port/stream/$bytes"

source bench/serve.sh moya-cli bench-server
peak() {
  local name=$1
  shift
  local report
  report=$( { /usr/bin/time -f '%M %e' "$@" > /dev/null; } 2>&1 | tail -1)
  printf '%-8s peak RSS %8.1f MiB  %6.2f s\n' "$name" "$(echo "$report" | awk '{print $1 / 1024}')" \
    "$(echo "$report" | awk '{print $2}')"
}
echo "$bytes bytes piped to /dev/null"
peak moya-cli "$bin/moya-cli" call bench.stream --bytes "$bytes" --specs bench/specs
peak curl curl -s "$url"
# xh holds the whole body unless told to stream. HTTPie is left out: with --stream it took
# 514 s for 100 MB here (36 MB peak), and without it holds the body.
if command -v xh > /dev/null; then
  peak xh xh --ignore-stdin "$url"
  peak xh-stream xh --ignore-stdin --stream "$url"
fi
