#!/usr/bin/env bash
# serve conforms to the original document: each corpus document is imported, its spec served
# by `moya-cli serve`, and schemathesis (PyPI) run against it with the ORIGINAL document and
# the checks status_code_conformance, response_schema_conformance, content_type_conformance
# and not_a_server_error. Prints one summary line per document; the full reports go to
# bench/out/schemathesis/NAME.txt, and exits 1 when any document had a failure.
# Usage: bench/schemathesis.sh [MAX_EXAMPLES] [DOCUMENT...]. MOYA_BIN names a folder holding
# moya-cli and moya-cli-tools to use in place of the tuned release build (CI passes the
# installed one).
# CHECKS=all runs every check but the stateful ones (use_after_free and
# ensure_resource_availability need state a mock does not keep), negative cases included, in
# the examples, coverage and fuzzing phases; serve then asks for credentials, and
# bench/credentials.py gives serve's environment and schemathesis the same ones. Reports go to
# bench/out/schemathesis-all/, and the summary adds each document's findings by code.
set -uo pipefail
cd "$(dirname "$0")/.."
examples=${1:-10}
shift || true
corpus=../shared/openapi-real
documents=("$@")
if [ ${#documents[@]} -eq 0 ]; then documents=("$corpus"/*.yaml "$corpus"/*.json); fi
bin=${MOYA_BIN:-$(bash bench/build.sh moya-cli moya-cli-tools)}
failed=0
out=bench/out/schemathesis
all=false
[ "${CHECKS:-}" = all ] && all=true && out=bench/out/schemathesis-all
mkdir -p "$out"
port=4190
for document in "${documents[@]}"; do
  name=$(basename "${document%.*}")
  spec=$out/$name.spec.yaml
  "$bin/moya-cli" import openapi "$document" -o "$spec" 2>/dev/null || {
    echo "$name: import failed"
    failed=1
    continue
  }
  # The base URL's path: schemathesis adds each operation's path to it, as the spec does.
  # A server variable (`${SERVICE_SCHEME:-https}://…`) stands for its default.
  base=$(sed -n 's/^baseURL: "\(.*\)"$/\1/p' "$spec" | sed -E 's/\$\{[A-Z0-9_]+:-([^}]*)\}/\1/g; s#^[a-z]+://[^/]*##')
  port=$((port + 1))
  if $all; then
    environment=()
    arguments=()
    while IFS= read -r line; do
      case $line in
        "ENV "*) environment+=("${line#ENV }") ;;
        "ARG "*) arguments+=("${line#ARG }") ;;
      esac
    done < <(python3 bench/credentials.py "$spec")
    env "${environment[@]}" "$bin/moya-cli" serve "$spec" --port "$port" > "$out/$name.serve.log" 2>&1 &
    server=$!
    sleep 1
    timeout 1800 st run "$document" "${arguments[@]}" --url "http://127.0.0.1:$port$base" --checks all \
      --exclude-checks use_after_free,ensure_resource_availability --phases examples,coverage,fuzzing \
      --max-examples "$examples" --seed 1 --no-color > "$out/$name.txt" 2>&1
    status=$?
  else
    # --no-auth: schemathesis sends no credentials, and the documents list no 401 for most
    # operations; serve's 401s are tested on their own (ServeCredentialTests).
    "$bin/moya-cli" serve "$spec" --port "$port" --no-auth > "$out/$name.serve.log" 2>&1 &
    server=$!
    sleep 1
    timeout 900 st run "$document" --url "http://127.0.0.1:$port$base" --mode positive \
      --checks status_code_conformance,response_schema_conformance,content_type_conformance,not_a_server_error \
      --max-examples "$examples" --seed 1 --no-color > "$out/$name.txt" 2>&1
    status=$?
  fi
  [ "$status" -eq 0 ] || failed=1
  kill "$server" 2>/dev/null
  wait "$server" 2>/dev/null
  echo "$name: exit $status; $(grep -E '^(Test cases:|  [0-9]+ generated)' -A1 "$out/$name.txt" | tr -s ' \n' ' ' | head -c 200); $(tail -1 "$out/$name.txt")"
  if $all; then sed -n '/^Failures:/,/^For more/p' "$out/$name.txt" | grep -F '❌'; fi
done
exit "$failed"
