#!/usr/bin/env bash
# `call` on a large spec: `moya-cli call big.target4000 --id 1 --stub immediate` with a
# 5,000-target spec (bench/gen-spec.py) against the same call with a spec holding only that
# target, interleaved in one hyperfine run, each named by its directory (`--specs DIR`) and by
# its file (`--specs FILE`). `validate` of the large spec, which compiles every target, is
# timed beside them for scale. Goal: the large call at most 1.3x the small one, in both forms.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out/lazy/large bench/out/lazy/small
runs=${RUNS:-100}
count=${TARGETS:-5000}

built=$(bash bench/build.sh moya-cli)
bin=bench/out/bin
mkdir -p "$bin"
install -m 755 "$built/moya-cli" "$bin/"

python3 bench/gen-spec.py "$count" > bench/out/lazy/large/big.yaml
# The same header and the one target, as the generator writes them.
python3 - "$count" <<'PY'
import sys
lines = open("bench/out/lazy/large/big.yaml").read().split("\n")
out, keep = [], True
for line in lines:
    if line.startswith("  target") and line.endswith(":"):
        keep = line == "  target4000:"
    if keep or not line.startswith("  "):
        out.append(line)
open("bench/out/lazy/small/big.yaml", "w").write("\n".join(out))
PY
call="$bin/moya-cli call big.target4000 --id 1 --stub immediate --specs"
cmp <($call bench/out/lazy/small) <($call bench/out/lazy/large)
cmp <($call bench/out/lazy/small) <($call bench/out/lazy/large/big.yaml)
echo "large spec: $(wc -c < bench/out/lazy/large/big.yaml) bytes, $count targets" >&2

# The machine is shared and its load drifts over seconds, so the four calls are timed in
# ROUNDS short hyperfine runs one after another, and each ratio is the median of the rounds'
# ratios, each round's small and large timed within the same second or two.
rounds=${ROUNDS:-8}
for round in $(seq "$rounds"); do
  hyperfine -N --warmup 3 --runs "$((runs / rounds + 1))" --export-json "bench/out/lazy-$round.json" \
    -n small "$call bench/out/lazy/small" \
    -n large "$call bench/out/lazy/large" \
    -n small-file "$call bench/out/lazy/small/big.yaml" \
    -n large-file "$call bench/out/lazy/large/big.yaml" > /dev/null
done
hyperfine -N --warmup 1 --runs 5 --export-json bench/out/lazy-validate.json \
  -n validate-large "$bin/moya-cli validate bench/out/lazy/large" > /dev/null

python3 - "$rounds" <<'PY'
import json, statistics, sys
rounds = [
    {r["command"]: r["median"] for r in json.load(open(f"bench/out/lazy-{n}.json"))["results"]}
    for n in range(1, int(sys.argv[1]) + 1)
]
for name in ("small", "large", "small-file", "large-file"):
    print(f"{name:15} median {statistics.median(r[name] for r in rounds) * 1000:7.2f} ms")
for large, small in (("large", "small"), ("large-file", "small-file")):
    ratios = sorted(r[large] / r[small] for r in rounds)
    print(f"{large:15} / {small:10} median {statistics.median(ratios):5.2f}x  (rounds {ratios[0]:.2f}-{ratios[-1]:.2f}x)")
validate = json.load(open("bench/out/lazy-validate.json"))["results"][0]["median"]
print(f"validate-large  median {validate * 1000:7.2f} ms")
PY
