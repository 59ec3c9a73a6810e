#!/usr/bin/env bash
# Times `moya-cli validate` on a generated 5,000-target spec as a whole process (hyperfine),
# and libyaml's raw load against the whole compile in process (spec-bench).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
python3 bench/gen-spec.py 5000 > bench/out/big.yaml
built=$(bash bench/build.sh moya-cli spec-bench)
# Time installed copies, as bench/call.sh does.
bin=bench/out/bin
mkdir -p "$bin"
install -m 755 "$built/moya-cli" "$built/spec-bench" "$bin/"
"$bin/moya-cli" validate bench/out/big.yaml
hyperfine -N --warmup 3 --runs 30 --export-json bench/out/validate.json \
  "$bin/moya-cli validate bench/out/big.yaml"
python3 - <<'PY'
import json
result = json.load(open("bench/out/validate.json"))["results"][0]
print(f"validate, 5,000 targets: median {result['median'] * 1000:.1f} ms (mean {result['mean'] * 1000:.1f} ms)")
PY
"$bin/spec-bench" bench/out/big.yaml 21
