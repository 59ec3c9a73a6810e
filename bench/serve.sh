# Sourced by the benchmarks: builds the release products named in "$@" with bench/build.sh,
# installs copies in bench/out/bin ($bin), and starts bench-server on $port, stopped when
# the script exits. Time installed copies: a binary straight out of the linker measured up
# to 0.7 ms slower to start than the same bytes copied, as an installed binary would be.
built=$(bash bench/build.sh "$@")
bin=bench/out/bin
mkdir -p "$bin"
for product in "$@"; do install -m 755 "$built/$product" "$bin/"; done
"$bin/bench-server" "$port" > bench/out/server.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$port/json" && break; sleep 0.1; done
export BENCH_URL="http://127.0.0.1:$port"
