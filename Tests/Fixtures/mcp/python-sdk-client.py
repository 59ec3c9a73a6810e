#!/usr/bin/env python3
"""`moya-cli mcp` through the official Python SDK's client (PyPI `mcp` 2.3.0 or later), at
both revisions: `ClientSession.initialize()` (the handshake, 2025-11-25) and
`ClientSession.discover()` (stateless, 2026-07-28). Prints what the server answered, one
line each, for MCPRevisionTests to compare whole. Over stdio, or over Streamable HTTP
(`moya-cli mcp --http 127.0.0.1:0`, its URL read from the line it writes on stderr).

    python-sdk-client.py MOYA-CLI SPEC [stdio|http]
"""
import asyncio
import contextlib
import json
import re
import subprocess
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError


def show(label, value):
    print(label + ": " + json.dumps(value, sort_keys=True, ensure_ascii=False))


def dump(model):
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


@contextlib.asynccontextmanager
async def http_server(moya, spec):
    """`moya-cli mcp --http` on a free port, stopped on the way out."""
    process = subprocess.Popen([moya, "mcp", "--specs", spec, "--stub", "immediate", "--http", "127.0.0.1:0"],
                               stderr=subprocess.PIPE, text=True, env={"PATH": "/usr/bin:/bin"})
    try:
        line = process.stderr.readline()
        found = re.search(r"on (http://\S+/mcp)", line)
        assert found, line
        yield found.group(1)
    finally:
        process.terminate()
        process.wait()


@contextlib.asynccontextmanager
async def connected(moya, spec, transport):
    if transport == "http":
        async with http_server(moya, spec) as url, streamable_http_client(url) as (read, write):
            yield read, write
    else:
        parameters = StdioServerParameters(
            command=moya, args=["mcp", "--specs", spec, "--stub", "immediate"], env={"PATH": "/usr/bin:/bin"})
        async with stdio_client(parameters, errlog=open("/dev/null", "w")) as (read, write):
            yield read, write


async def session(moya, spec, mode, transport):
    async with connected(moya, spec, transport) as (read, write):
        async with ClientSession(read, write) as client:
            show(mode, dump(await getattr(client, mode)()))
            tools = await client.list_tools()
            show(mode + " tools", [tool.name for tool in tools.tools])
            result = await client.call_tool("myservice.showUser", {"id": 1})
            show(mode + " call", {"isError": result.is_error, "text": result.content[0].text})
            refused = await client.call_tool("myservice.showUser", {"id": "one"})
            show(mode + " refused", {"isError": refused.is_error, "text": refused.content[0].text})
            if mode == "discover":
                try:
                    await client.send_discover("2099-01-01")
                except MCPError as error:
                    show("unsupported", {"code": error.code, "data": error.error.data})


async def main():
    transport = sys.argv[3] if len(sys.argv) > 3 else "stdio"
    for mode in ("initialize", "discover"):
        await session(sys.argv[1], sys.argv[2], mode, transport)


asyncio.run(main())
