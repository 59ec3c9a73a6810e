#!/usr/bin/env bash
# Issue 38, finding 19: `call --record` of a 30 MB body that echoes two secrets, which the
# scrubber had to remove in one pass per encoded form per secret (16-18 s). hyperfine, on the
# tuned release build, beside OLD_BIN (a moya-cli built from the commit before the fix), when
# given. The same two binaries are also timed on a stubbed call, for what the file root and
# the cookie jar's libpsl cost at start-up, and on the 5,000-target spec of bench/lazy.sh
# (`validate`, and a call of one target), which is now read rather than mapped.
# SKIP_RECORD=1 leaves out the recording (the old binary takes 45 s a run). Medians are in
# bench/out/record*.json.
set -euo pipefail
cd "$(dirname "$0")/.."
port=${RECORD_PORT:-18097}
runs=${RUNS:-5}
built=$(bash bench/build.sh moya-cli)
bin=bench/out/bin
mkdir -p "$bin"
install -m 755 "$built/moya-cli" "$bin/"
work=$PWD/bench/out/record
rm -rf "$work"
mkdir -p "$work/site" "$work/specs"
# 30 MiB of text, each MiB holding both secrets once.
python3 - "$work/site/big.txt" <<'PY'
import sys
line = b"x" * 1000 + b"\n"
block = line * 1000 + b" s3cret-one-value s3cret-two-value\n"
with open(sys.argv[1], "wb") as f:
    for _ in range(30 * (1 << 20) // len(block)):
        f.write(block)
PY
cat > "$work/specs/rec.yaml" <<YAML
service: rec
baseURL: http://127.0.0.1:$port
headers:
  X-One: { value: "\${ONE}", secret: true }
  X-Two: { value: "\${TWO}", secret: true }
targets:
  big:
    path: /big.txt
YAML
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$work/site" > /dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$port/big.txt" && break; sleep 0.1; done
export ONE=s3cret-one-value TWO=s3cret-two-value
record=(call rec.big --record --force --specs "$work/specs")
commands=("$bin/moya-cli ${record[*]}")
names=(new)
if [ -n "${OLD_BIN:-}" ]; then
  commands+=("$OLD_BIN ${record[*]}")
  names+=(old)
fi
args=()
for index in "${!commands[@]}"; do args+=(-n "record 30 MB (${names[$index]})" "${commands[$index]}"); done
if [ -z "${SKIP_RECORD:-}" ]; then
  hyperfine -N --warmup 1 --runs "$runs" --export-json bench/out/record.json "${args[@]}"
  # Nothing secret reached the recorded body.
  if grep -q s3cret "$work/specs/rec.big.txt"; then echo "a secret was recorded" >&2; exit 1; fi
fi

stub=(call myservice.showUser --id 1 --stub immediate --specs specs)
args=(-n "stubbed call (new)" "$bin/moya-cli ${stub[*]}")
[ -z "${OLD_BIN:-}" ] || args+=(-n "stubbed call (old)" "$OLD_BIN ${stub[*]}")
hyperfine -N --warmup 5 --runs 50 --export-json bench/out/record-startup.json "${args[@]}"

python3 bench/gen-spec.py 5000 > "$work/big.yaml"
args=()
for side in new old; do
  binary=$bin/moya-cli
  if [ $side = old ]; then
    [ -n "${OLD_BIN:-}" ] || continue
    binary=$OLD_BIN
  fi
  args+=(-n "validate 5,000 targets ($side)" "$binary validate $work/big.yaml")
  args+=(-n "call 1 of 5,000 ($side)" "$binary call big.target4000 --id 1 --stub immediate --specs $work/big.yaml")
done
hyperfine -N --warmup 3 --runs 30 --export-json bench/out/record-large.json "${args[@]}"
# The medians, in ms.
for file in bench/out/record.json bench/out/record-startup.json bench/out/record-large.json; do
  [ -e "$file" ] || continue
  python3 - "$file" <<'PY'
import json, sys
for result in json.load(open(sys.argv[1]))["results"]:
    print("%s: median %.1f ms" % (result["command"], result["median"] * 1000))
PY
done
