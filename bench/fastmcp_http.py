"""FastMCP (PyPI `fastmcp`) serving bench/specs' `bench` service over Streamable HTTP,
stateless with JSON answers, its tools made from the service's OpenAPI export: the peer of
`moya-cli mcp --http` in bench/mcp-http.sh.

    python fastmcp_http.py OPENAPI.json BASE-URL PORT
"""
import json
import sys

import httpx2
from fastmcp import FastMCP

document, base, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(document) as source:
    spec = json.load(source)
server = FastMCP.from_openapi(openapi_spec=spec, client=httpx2.AsyncClient(base_url=base), name="bench")
server.run(transport="http", host="127.0.0.1", port=port, stateless_http=True, json_response=True, show_banner=False,
           log_level="error")
