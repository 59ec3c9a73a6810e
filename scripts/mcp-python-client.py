#!/usr/bin/env python3
"""`moya-cli mcp` through the Python MCP SDK's client (PyPI `mcp`), as CI runs it.

    scripts/mcp-python-client.py BINDIR [OPENAPI-DOCUMENT...]

1. A live server of our own on 127.0.0.1 echoes the headers it gets (as httpbin's /headers
   does). A spec sends it a secret header and a bearer token from the environment. The client
   opens with the `initialize` handshake (2025-11-25), lists the tools, calls the read tool,
   and is refused the write. No form of either secret may come back.
2. Each OpenAPI document is imported, then listed with `mcp --stub immediate`, the client
   opening with `discover` (2026-07-28, stateless):
   - every GET operation must be a read-only tool;
   - every input schema must be valid JSON Schema 2020-12 (the `jsonschema` package);
   - no name may be over 64 characters.
"""
import asyncio
import base64
import http.server
import json
import os
import sys
import tempfile
import threading
import urllib.parse

import jsonschema
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import PaginatedRequestParams

BIN = sys.argv[1]
MOYA = os.path.join(BIN, "moya-cli")
KEY = "k3y/+=s3cret é"
TOKEN = "b3arer/t0ken+x"


class Echo(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = json.dumps({"headers": dict(self.headers.items())}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def forms(secret):
    quoted = urllib.parse.quote(secret, safe="")
    escaped = json.dumps(secret)[1:-1]
    return {secret, quoted, quoted.lower(), urllib.parse.quote_plus(secret), escaped, escaped.replace("\\/", "/"),
            json.dumps(secret, ensure_ascii=False)[1:-1], base64.b64encode(secret.encode()).decode()}


async def all_tools(session):
    tools, cursor = [], None
    while True:
        page = await session.list_tools(params=PaginatedRequestParams(cursor=cursor) if cursor else None)
        tools += page.tools
        cursor = page.next_cursor
        if not cursor:
            return tools


def text_of(result):
    return "\n".join(part.text for part in result.content if part.type == "text")


async def live(folder):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Echo)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    spec = os.path.join(folder, "echo.yaml")
    with open(spec, "w") as out:
        out.write("service: echo\nbaseURL: ${ECHO_URL}\n"
                  "headers:\n  X-Api-Key: { value: \"${ECHO_KEY}\", secret: true }\n"
                  "auth: { bearer: \"${ECHO_TOKEN}\" }\n"
                  "targets:\n  headers:\n    summary: The headers the server got\n    path: /headers\n"
                  "  create:\n    method: POST\n    path: /things\n")
    environment = {"ECHO_URL": f"http://127.0.0.1:{server.server_port}", "ECHO_KEY": KEY, "ECHO_TOKEN": TOKEN}
    parameters = StdioServerParameters(command=MOYA, args=["mcp", "--specs", spec], env={"PATH": "/usr/bin:/bin",
                                                                                       **environment})
    async with stdio_client(parameters) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = await all_tools(session)
            names = [tool.name for tool in tools]
            assert names == ["echo.headers"], names
            assert tools[0].annotations.read_only_hint is True
            listed = json.dumps([tool.model_dump(mode="json") for tool in tools], ensure_ascii=False)
            result = await session.call_tool("echo.headers", {})
            text = text_of(result)
            assert not result.is_error, text
            assert "X-Api-Key" in text and "••••" in text, text
            refused = await session.call_tool("echo.create", {})
            assert refused.is_error and "--allow-writes" in text_of(refused), text_of(refused)
            for secret in (KEY, TOKEN):
                for form in forms(secret):
                    for output in (listed, text, text_of(refused)):
                        assert form not in output, f"{form!r} in {output}"
    server.shutdown()
    print("mcp live: ok (list, call, refused write; no secret in any form)")


async def corpus(document, folder):
    name = os.path.splitext(os.path.basename(document))[0]
    spec = os.path.join(folder, name + ".yaml")
    process = await asyncio.create_subprocess_exec(MOYA, "import", "openapi", document, "-o", spec,
                                                   stderr=asyncio.subprocess.DEVNULL)
    assert await process.wait() == 0, f"import of {document} failed"
    process = await asyncio.create_subprocess_exec(MOYA, "list", "--specs", spec, "--json",
                                                   stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    listed, _ = await process.communicate()
    gets = {f"{service['service']}.{target['name']}" for service in json.loads(listed)
            for target in service["targets"] if target["method"] == "GET"}
    parameters = StdioServerParameters(command=MOYA, args=["mcp", "--specs", spec, "--stub", "immediate"],
                                       env={"PATH": "/usr/bin:/bin"})
    async with stdio_client(parameters) as (read, write):
        async with ClientSession(read, write) as session:
            discovered = await session.discover()
            assert discovered.supported_versions == ["2026-07-28"], discovered
            tools = await all_tools(session)
    for tool in tools:
        assert len(tool.name) <= 64, tool.name
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
        if tool.output_schema is not None:
            jsonschema.Draft202012Validator.check_schema(tool.output_schema)
        assert tool.annotations.open_world_hint is False, tool.name
    full = set()
    for tool in tools:
        if not tool.annotations.read_only_hint:
            continue
        marker = " service ("
        full.add(tool.description.split(marker, 1)[1].split(")")[0] if marker in tool.description else tool.name)
    missing = gets - full
    assert not missing, f"{name}: GET operations that are not read-only tools: {sorted(missing)[:5]}"
    print(f"mcp corpus {name}: {len(gets)} GET operations, {len(tools)} tools, all read-only, schemas valid")


async def main():
    with tempfile.TemporaryDirectory() as folder:
        await live(folder)
        for document in sys.argv[2:]:
            await corpus(document, folder)


asyncio.run(main())
