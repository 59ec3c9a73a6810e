#!/usr/bin/env bash
# Regular expressions under load (issue 39): 1,000 stubbed checks of `matches: "^H"`, a
# pattern MoyaRegex matches in linear time (`^(a+)+$` on 30 a's and a '!'), and one that must
# backtrack (lookaround), run idle and again while every core runs a busy loop. The two runs
# must print the same results, with no `^H` check failed. OLD_BIN, when set, runs the same
# spec under the same load with an earlier binary (whose budgets were 100 ms of wall clock).
# Then the second design beside it: PCRE2 with match_limit (bench/regex_engines.py), on the
# optional ECMA-262 regex tests and on the pathological patterns.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
built=$(bash bench/build.sh moya-cli regex-bench)
bin=bench/out/bin
mkdir -p "$bin"
install -m 755 "$built/moya-cli" "$built/regex-bench" "$bin/"

spec=bench/out/regex/regex.yaml
mkdir -p "$(dirname "$spec")"
python3 - > "$spec" <<'PY'
print("service: regexbench")
print("baseURL: http://127.0.0.1:9")
print("targets:")
print("  name:")
print("    sample: Harry")
print("    checks:")
for n in range(1000):
    print(f"      - {{ name: h{n}, expect: {{ body: {{ matches: \"^H\" }} }} }}")
print("  hostile:")
print("    sample: " + "a" * 30 + "!")
print("    checks:")
print("      - { name: linear, expect: { body: { matches: \"^(a+)+$\" } } }")
print("      - { name: backtracks, expect: { body: { matches: \"^(?=(a|aa)+b)\" } } }")
PY

run() { "$1" check "$spec" --stub immediate 2>/dev/null | sed -E 's/\([0-9.]+ (ms|s)\)//; s/ in [0-9.]+ (ms|s)$//' || true; }

run "$bin/moya-cli" > bench/out/regex/idle.txt
busy=()
for _ in $(seq $(( $(nproc) * 2 ))); do sh -c 'while :; do :; done' & busy+=($!); done
trap 'kill "${busy[@]}" 2>/dev/null || true' EXIT
run "$bin/moya-cli" > bench/out/regex/loaded.txt
if [ -n "${OLD_BIN:-}" ]; then run "$OLD_BIN" > bench/out/regex/old-loaded.txt; fi
kill "${busy[@]}" 2>/dev/null || true
trap - EXIT

echo "idle:   $(tail -1 bench/out/regex/idle.txt)"
echo "loaded: $(tail -1 bench/out/regex/loaded.txt)"
if cmp -s bench/out/regex/idle.txt bench/out/regex/loaded.txt; then
  echo "idle and loaded print the same results"
else
  echo "idle and loaded differ:"; diff bench/out/regex/idle.txt bench/out/regex/loaded.txt || true
fi
echo "^H checks failed under load: $(grep -c 'FAIL  regexbench.name' bench/out/regex/loaded.txt || true)"
grep -A1 'FAIL  regexbench.hostile' bench/out/regex/loaded.txt | grep -v '^--' | sed 's/^ */  /'
if [ -n "${OLD_BIN:-}" ]; then
  echo "earlier binary, loaded: $(tail -1 bench/out/regex/old-loaded.txt)"
  echo "earlier binary, ^H checks failed under load: $(grep -c 'FAIL  regexbench.name' bench/out/regex/old-loaded.txt || true)"
fi

hyperfine -N --warmup 2 --runs 15 --export-json bench/out/regex.json \
  -n "moya-cli check (1,002 regex checks)" "$bin/moya-cli check $spec --stub immediate" \
  ${OLD_BIN:+-n "earlier binary" "$OLD_BIN check $spec --stub immediate"} -i > /dev/null
python3 - <<'PY'
import json
for r in json.load(open("bench/out/regex.json"))["results"]:
    print(f"{r['command']:40} median {r['median'] * 1000:8.1f} ms")
PY

echo "the second design, PCRE2 with match_limit:"
python3 bench/regex_engines.py suite "${JSON_SCHEMA_TEST_SUITE:-../shared/json-schema-test-suite}" | tail -1
python3 bench/regex_engines.py pathological
"$bin/regex-bench" '^(a+)+$' '^(?=(a|aa)+b)' '^(a|aa)+b'
