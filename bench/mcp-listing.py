#!/usr/bin/env python3
"""The size of `tools/list` for each document of the shared corpus: each imported with
`moya-cli import openapi -o DIR/`, served by `moya-cli mcp --allow-writes --allow-deletes`
over stdio (every operation a tool), and listed page by page. Prints each document's tool
count, page count, largest page and total in bytes as sent (one JSON-RPC line), and the
largest page of all. Goal: every page under 500 KB, no input schema dropped (each tool's
inputSchema is checked to be there). Sizes, not timings: one run is the measurement.

usage: bench/mcp-listing.py MOYA_CLI [SHARED]"""
import json, os, subprocess, sys, tempfile

moya = sys.argv[1]
shared = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "..", "shared")
corpus = os.path.join(shared, "openapi-real")
largest = 0
for name in sorted(os.listdir(corpus)):
    if not name.endswith((".yaml", ".json")):
        continue
    folder = tempfile.mkdtemp()
    subprocess.run([moya, "import", "openapi", os.path.join(corpus, name), "-o", folder + "/specs/"],
                   check=True, stderr=subprocess.DEVNULL)
    server = subprocess.Popen([moya, "mcp", "--specs", folder + "/specs", "--allow-writes", "--allow-deletes"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    def ask(message):
        server.stdin.write((json.dumps(message) + "\n").encode())
        server.stdin.flush()
        return server.stdout.readline() if "id" in message else b""
    ask({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}})
    ask({"jsonrpc": "2.0", "method": "notifications/initialized"})
    cursor, pages, tools, sizes = None, 0, 0, []
    while True:
        params = {"cursor": cursor} if cursor else {}
        line = ask({"jsonrpc": "2.0", "id": pages + 1, "method": "tools/list", "params": params})
        result = json.loads(line)["result"]
        assert all("inputSchema" in tool for tool in result["tools"]), name
        pages += 1
        tools += len(result["tools"])
        sizes.append(len(line))
        cursor = result.get("nextCursor")
        if not cursor:
            break
    server.stdin.close()
    server.wait()
    largest = max(largest, max(sizes))
    print(f"{name:24} {tools:4} tools  {pages:2} pages  largest page {max(sizes) / 1024:7.1f} KB  "
          f"all pages {sum(sizes) / 1024:8.1f} KB")
print(f"largest page of all: {largest / 1024:.1f} KB (goal under 500 KB)")
