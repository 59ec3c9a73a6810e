#!/usr/bin/env bash
# Pages (paginate:, call --all): 10,000 items in 100 pages of 100, in each style, against a
# shell loop of 100 calls that each send one page by its number; curl and xh send the same
# 100 requests in a shell loop for scale. Each style's output is checked first: every item,
# in order. Then peak memory of --all --lines over pages of 1 MiB: 10 pages against 100
# (100 MiB), which must be the same if memory is flat.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
port=${BENCH_PORT:-18083}
runs=${RUNS:-10}
source bench/serve.sh moya-cli bench-server
moya="$bin/moya-cli"
specs=bench/specs

for target in linked inBody cursor numbered; do
  "$moya" call "bench.$target" --all --lines --max-pages 200 --specs "$specs" |
    python3 -c 'import json, sys
ids = [json.loads(line)["id"] for line in sys.stdin]
assert ids == list(range(1, 10001)), (sys.argv[1], len(ids))' "$target"
done
echo "every style: 10000 items, in order"

page="$BENCH_URL/pages/number?total=10000&size=100"
hyperfine --warmup 1 --runs "$runs" --export-json bench/out/pages.json \
  -n "call --all, next: link" "$moya call bench.linked --all --max-pages 200 --specs $specs" \
  -n "call --all, next: url" "$moya call bench.inBody --all --max-pages 200 --specs $specs" \
  -n "call --all, next: cursor" "$moya call bench.cursor --all --max-pages 200 --specs $specs" \
  -n "call --all, next: increment (101 requests)" "$moya call bench.numbered --all --max-pages 200 --specs $specs" \
  -n "call --all --lines, next: link" "$moya call bench.linked --all --lines --max-pages 200 --specs $specs" \
  -n "shell loop of 100 calls" "for p in \$(seq 1 100); do $moya call bench.numbered --page \$p --specs $specs; done" \
  -n "shell loop of 100 curl" "for p in \$(seq 1 100); do curl -s '$page&page='\$p; done" \
  -n "shell loop of 100 xh" "for p in \$(seq 1 100); do xh --ignore-stdin '$page&page='\$p; done"

peak() {
  local report
  report=$( { /usr/bin/time -f '%M %e' "$@" > /dev/null; } 2>&1 | tail -1)
  printf 'peak RSS %8.1f MiB  %6.2f s\n' "$(echo "$report" | awk '{print $1 / 1024}')" \
    "$(echo "$report" | awk '{print $2}')"
}
for total in 1000 10000; do
  printf '%-44s' "--all --lines, $((total / 100)) pages of 1 MiB:"
  peak "$moya" call bench.linked --all --lines --max-pages 200 --total "$total" --pad 10240 --specs "$specs"
  printf '%-44s' "--all (array), $((total / 100)) pages of 1 MiB:"
  peak "$moya" call bench.linked --all --max-pages 200 --total "$total" --pad 10240 --specs "$specs"
done
