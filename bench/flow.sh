#!/usr/bin/env bash
# Times 200 runs of a five-step flow (create a person, read them back, echo a captured value,
# delete them, see them gone: 1,000 requests) as `moya-cli check --parallel 8`, against the
# same 1,000 requests made by Tavern (pytest), in one hyperfine run against bench-server on
# loopback; then the check run's peak memory.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
port=${BENCH_PORT:-18082}
flows=${BENCH_FLOWS:-200}
runs=${BENCH_RUNS:-5}

source bench/serve.sh moya-cli bench-server

# The spec: five targets and FLOWS copies of one flow.
python3 - "$flows" > bench/out/flows.yaml <<'PY'
import sys
flows = int(sys.argv[1])
print("""service: flowbench
baseURL: ${BENCH_URL:-http://127.0.0.1:18082}
targets:
  createPerson:
    method: POST
    path: /people
    params: { first: string }
    task: { parameters: { first_name: "{first}" }, encoding: json }
  showPerson: { path: "/people/{id}", params: { id: int }, validation: none }
  deletePerson: { method: DELETE, path: "/people/{id}", params: { id: int } }
  echo: { path: /echo, params: { value: string }, headers: { X-Value: "{value}" } }
flows:""")
for n in range(flows):
    print(f"""  lifecycle{n}:
    steps:
      - {{ name: create, call: createPerson, params: {{ first: Ann }}, expect: {{ status: 201 }}, capture: {{ id: $.id }} }}
      - {{ name: read, call: showPerson, params: {{ id: "{{id}}" }}, expect: {{ status: 200, json: {{ $.id: "{{id}}" }} }} }}
      - {{ name: echo, call: echo, params: {{ value: "person {{id}}" }}, expect: {{ status: 200 }} }}
      - {{ name: delete, call: deletePerson, params: {{ id: "{{id}}" }}, expect: {{ status: 204 }} }}
      - {{ name: gone, call: showPerson, params: {{ id: "{{id}}" }}, expect: {{ status: 404 }} }}""")
PY

# The same five requests per test in Tavern, with the id saved and reused the same way.
python3 - "$flows" "$port" > bench/out/test_flows.tavern.yaml <<'PY'
import sys
flows, port = int(sys.argv[1]), sys.argv[2]
base = f"http://127.0.0.1:{port}"
docs = []
for n in range(flows):
    docs.append(f"""test_name: lifecycle {n}
stages:
  - name: create
    request: {{ url: "{base}/people", method: POST, json: {{ first_name: Ann }} }}
    response: {{ status_code: 201, save: {{ json: {{ id: id }} }} }}
  - name: read
    request: {{ url: "{base}/people/{{id}}", method: GET }}
    response: {{ status_code: 200, json: {{ id: !int "{{id}}", first_name: Ann }} }}
  - name: echo
    request: {{ url: "{base}/echo", method: GET, headers: {{ X-Value: "person {{id}}" }} }}
    response: {{ status_code: 200 }}
  - name: delete
    request: {{ url: "{base}/people/{{id}}", method: DELETE }}
    response: {{ status_code: 204 }}
  - name: gone
    request: {{ url: "{base}/people/{{id}}", method: GET }}
    response: {{ status_code: 404 }}""")
print("\n---\n".join(docs))
PY

"$bin/moya-cli" check bench/out/flows.yaml --parallel 8 > bench/out/flows.txt
tail -1 bench/out/flows.txt
(cd bench/out && pytest -q -p no:cacheprovider test_flows.tavern.yaml | tail -1)

hyperfine -N --warmup 1 --runs "$runs" --export-json bench/out/flow.json \
  -n "tavern" "sh -c 'cd bench/out && pytest -q -p no:cacheprovider test_flows.tavern.yaml'" \
  -n "moya-cli check" "$bin/moya-cli check bench/out/flows.yaml --parallel 8"

/usr/bin/time -f "%M" -o bench/out/flow-rss.txt "$bin/moya-cli" check bench/out/flows.yaml --parallel 8 > /dev/null

python3 - "$flows" <<'PY'
import json, sys
requests = int(sys.argv[1]) * 5
results = {r["command"]: r for r in json.load(open("bench/out/flow.json"))["results"]}
tavern = results["tavern"]["median"]
check = results["moya-cli check"]["median"]
print(f"tavern          median {tavern * 1000:9.1f} ms  {requests / tavern:8.0f} requests/s")
print(f"moya-cli check  median {check * 1000:9.1f} ms  {requests / check:8.0f} requests/s  {tavern / check:5.1f}x Tavern")
print(f"moya-cli check  peak RSS {int(open('bench/out/flow-rss.txt').read().split()[-1]) / 1024:.1f} MiB")
PY
