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

hyperfine -N --warmup 10 --runs "$runs" --export-json bench/out/lazy.json \
  -n small "$call bench/out/lazy/small" \
  -n large "$call bench/out/lazy/large" \
  -n small-file "$call bench/out/lazy/small/big.yaml" \
  -n large-file "$call bench/out/lazy/large/big.yaml" \
  -n validate-large "$bin/moya-cli validate bench/out/lazy/large"

python3 - <<'PY'
import json
results = {r["command"]: r for r in json.load(open("bench/out/lazy.json"))["results"]}
small = results["small"]["median"]
for name in ("small", "large", "small-file", "large-file", "validate-large"):
    median = results[name]["median"]
    print(f"{name:15} median {median * 1000:7.2f} ms  ratio to small {median / small:5.2f}x")
PY
