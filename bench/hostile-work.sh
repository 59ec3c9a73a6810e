#!/usr/bin/env bash
# Trust round four's work bounds (bench/RESULTS.md): what a stranger's input costs.
# 1. serve reading a 16 MiB form and a 16 MiB XML body of distinct keys, posted to a target
#    with a requestSchema: the server's CPU seconds per request (from /proc), and curl's wall
#    time, against 5,000- and 50,000-key bodies, the finding's sizes. Goal: under 1 s of CPU.
# 2. moya.select on a 16 MiB body through `moya-cli mcp` (a stubbed target whose sample is the
#    body): each select's process CPU seconds, against the same call without a select.
#    Goal: any select under 1 s of CPU.
# Needs curl and hyperfine.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-5}
out=bench/out/hostile
mkdir -p "$out"
built=$(bash bench/build.sh moya-cli moya-cli-tools)
bin=$built
port=${BENCH_PORT:-18111}

# --- the bodies -------------------------------------------------------------------------
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
def form(count, size=None):
    pairs = ["name=a", "tags=x"] + [f"k{i}=v{i}" for i in range(count)]
    if size:
        # Distinct keys to the size: the worst case for a reader that looks keys up by scanning.
        length = sum(len(p) + 1 for p in pairs)
        pad = 0
        while length < size:
            pair = f"p{pad}=" + "x" * 64
            pairs.append(pair)
            length += len(pair) + 1
            pad += 1
    text = "&".join(pairs)
    return text[:size] if size else text
def xml(count, size=None):
    parts = ["<r><name>a</name><tags>x</tags>"] + [f"<k{i}>v{i}</k{i}>" for i in range(count)]
    text = "".join(parts)
    if size:
        pad = 0
        chunks = [text]
        length = len(text)
        while length < size - 16:
            chunk = f"<p{pad}>{'x' * 64}</p{pad}>"
            chunks.append(chunk)
            length += len(chunk)
            pad += 1
        text = "".join(chunks)
    return text + "</r>"
for name, body in [("form-5k", form(5000)), ("form-50k", form(50000)), ("form-16m", form(0, 16 << 20)),
                   ("xml-5k", xml(5000)), ("xml-50k", xml(50000)), ("xml-16m", xml(0, (16 << 20) - 64))]:
    open(f"{out}/{name}.body", "w").write(body)
# A 16 MiB JSON body of objects, for the selects.
items = []
size = 0
index = 0
while size < 16 << 20:
    item = {"id": index, "name": f"item {index}", "tags": ["a", "b"], "owner": {"id": index % 97, "token": "t"}}
    text = json.dumps(item)
    items.append(text)
    size += len(text) + 1
    index += 1
open(f"{out}/big.json", "w").write("[" + ",".join(items) + "]")
PY
cat > "$out/body.yaml" <<YAML
service: body
baseURL: http://127.0.0.1:$port
targets:
  post:
    method: POST
    path: /body
    requestSchema:
      type: object
      required: [name, tags]
      properties: { name: { type: string }, tags: { type: array, items: { type: string } } }
    sample: { json: { ok: true } }
  big:
    path: /big
    sample: { file: big.json }
YAML

# --- 1. serve -----------------------------------------------------------------------------
"$bin/moya-cli" serve "$out/body.yaml" --port "$port" 2> "$out/serve.log" &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/big" && break; sleep 0.1; done
cpu() { awk '{ print $14 + $15 }' "/proc/$server/stat"; }
ticks=$(getconf CLK_TCK)
echo "== serve: CPU seconds per request (median of $runs), and curl's wall time"
for name in form-5k form-50k form-16m xml-5k xml-50k xml-16m; do
  type=application/x-www-form-urlencoded
  [[ $name == xml* ]] && type=application/xml
  samples=()
  for _ in $(seq "$runs"); do
    before=$(cpu)
    curl -s -o /dev/null -H "Content-Type: $type" --data-binary "@$out/$name.body" "http://127.0.0.1:$port/body"
    after=$(cpu)
    samples+=("$(python3 -c "print(($after - $before) / $ticks)")")
  done
  median=$(printf '%s\n' "${samples[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  bytes=$(stat -c %s "$out/$name.body")
  printf '%-9s %9d bytes  serve CPU %.3f s\n' "$name" "$bytes" "$median"
done
kill $server 2>/dev/null || true

# --- 2. moya.select ------------------------------------------------------------------------
echo "== moya.select on a $(stat -c %s "$out/big.json")-byte body: one mcp process per call"
init='{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}'
commands=()
names=()
for select in "" '$[*].id' '$..*' '$..*..*' '$..[?search(@, "item 9")]' '$[?@.owner.id == 3].name'; do
  if [ -z "$select" ]; then
    arguments='{}'
    names+=("no select")
  else
    arguments=$(python3 -c 'import json, sys; print(json.dumps({"moya.select": sys.argv[1]}))' "$select")
    names+=("$select")
  fi
  call="{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"body.big\",\"arguments\":$arguments}}"
  printf '%s\n%s\n' "$init" "$call" > "$out/call-${#commands[@]}.jsonl"
  commands+=("$bin/moya-cli mcp --specs $out/body.yaml --stub immediate < $out/call-${#commands[@]}.jsonl")
done
args=()
for index in "${!commands[@]}"; do args+=(-n "${names[$index]}" "${commands[$index]}"); done
hyperfine --warmup 1 --runs "$runs" --export-json "$out/select.json" "${args[@]}" > /dev/null
python3 - "$out/select.json" <<'PY'
import json, statistics, sys
results = json.load(open(sys.argv[1]))["results"]
base = results[0]["user"] + results[0]["system"]
for r in results:
    cpu = r["user"] + r["system"]
    print(f"{r['command']:<28} wall median {r['median']:.3f} s  CPU mean {cpu:.3f} s  (+{cpu - base:.3f} s over no select)")
PY
# What each answered, so a reader sees a budget stop is an answer, not a hang.
for index in "${!commands[@]}"; do
  printf '%-28s ' "${names[$index]}"
  bash -c "${commands[$index]}" 2> /dev/null | tail -n 1 | python3 -c '
import json, sys
m = json.loads(sys.stdin.read())
r = m.get("result", {})
text = r.get("content", [{}])[0].get("text", "")
print(("error: " if r.get("isError") else "ok: ") + text.splitlines()[-1][:110])'
done
