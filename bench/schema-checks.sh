#!/usr/bin/env bash
# 5,000 stubbed checks with `expect: { schema: true }` against 5,000 with `expect: { status:
# 200 }` on the same targets and samples (issue 39: a schema check costs at most 1.25× a
# status check, now that a schema is compiled once and kept with the spec). OLD_BIN, when
# set, runs the same two specs with an earlier binary, side by side.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out/schema-checks
built=$(bash bench/build.sh moya-cli)
bin=bench/out/bin
mkdir -p "$bin"
install -m 755 "$built/moya-cli" "$bin/"

for kind in status schema; do
  python3 - "$kind" > "bench/out/schema-checks/$kind.yaml" <<'PY'
import sys
kind = sys.argv[1]
expect = "{ status: 200 }" if kind == "status" else "{ schema: true }"
print(f"service: {kind}checks")
print("baseURL: http://127.0.0.1:9")
print("targets:")
for target in range(50):
    print(f"  user{target}:")
    print("    schema:")
    print("      type: object")
    print("      required: [id, name, email, friends]")
    print("      properties:")
    print("        id: { type: integer, minimum: 1 }")
    print("        name: { type: string, minLength: 1, pattern: \"^[A-Z]\" }")
    print("        email: { type: string, format: email }")
    print("        friends: { type: array, items: { type: object, required: [name], properties: { name: { type: string } } } }")
    print("    sample: { json: { id: 7, name: Harry, email: harry@example.com, friends: [{ name: Ron }, { name: Hermione }] } }")
    print("    checks:")
    for n in range(100):
        print(f"      - {{ name: c{n}, expect: {expect} }}")
PY
done

"$bin/moya-cli" check bench/out/schema-checks/schema.yaml --stub immediate | tail -1
commands=(-n "status checks" "$bin/moya-cli check bench/out/schema-checks/status.yaml --stub immediate"
  -n "schema checks" "$bin/moya-cli check bench/out/schema-checks/schema.yaml --stub immediate")
if [ -n "${OLD_BIN:-}" ]; then
  commands+=(-n "earlier: status checks" "$OLD_BIN check bench/out/schema-checks/status.yaml --stub immediate"
    -n "earlier: schema checks" "$OLD_BIN check bench/out/schema-checks/schema.yaml --stub immediate")
fi
hyperfine -N --warmup 2 --runs 15 --export-json bench/out/schema-checks.json "${commands[@]}" > /dev/null
python3 - <<'PY'
import json
results = {r["command"]: r["median"] for r in json.load(open("bench/out/schema-checks.json"))["results"]}
for prefix in ["", "earlier: "]:
    status, schema = results.get(prefix + "status checks"), results.get(prefix + "schema checks")
    if status is None:
        continue
    label = prefix or "this build: "
    print(f"{label:16} 5,000 status checks {status * 1000:7.1f} ms, 5,000 schema checks {schema * 1000:7.1f} ms: {schema / status:.2f}x")
PY
