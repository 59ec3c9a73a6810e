#!/usr/bin/env python3
"""`moya-cli mcp --http` deployed as docs/mcp.md says, driven by the official Python SDK's
client (PyPI `mcp` 2.3.0 or later). Prints one line per finding for MCPDeploymentTests to
compare whole.

1. Two instances behind haproxy, round-robin: 100 calls at 2026-07-28 (stateless), then 100
   at 2025-11-25 through the documented stick table on Mcp-Session-Id.
2. OAuth: an authorization server of our own (its RFC 8414 metadata and JWK Set) whose keys
   moya-cli finds from `--auth-issuer` alone; a token from it lets the client list and call;
   no token, a wrong audience and an expired token are refused with 401.

    http-deployment.py MOYA-CLI SPEC [haproxy|oauth]...
"""
import asyncio
import base64
import contextlib
import http.server
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time

import httpx2
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

MOYA, SPEC = sys.argv[1], sys.argv[2]


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def moya(*flags):
    """`moya-cli mcp --http 127.0.0.1:0` with `flags`; yields its URL."""
    process = subprocess.Popen([MOYA, "mcp", "--specs", SPEC, "--stub", "immediate", "--http", "127.0.0.1:0", *flags],
                               stderr=subprocess.PIPE, text=True, env={"PATH": "/usr/bin:/bin"})
    try:
        line = process.stderr.readline()
        found = re.search(r"on (http://\S+/mcp)", line)
        assert found, line
        yield found.group(1)
    finally:
        process.terminate()
        process.wait()


async def calls(url, mode, count, headers=None):
    """`count` calls in one client session opened with `mode`; the errors."""
    errors = 0
    async with create_mcp_http_client(headers=headers) as client:
        async with streamable_http_client(url, http_client=client) as (read, write):
            async with ClientSession(read, write) as session:
                await getattr(session, mode)()
                for index in range(count):
                    try:
                        result = await session.call_tool("myservice.showUser", {"id": 1 + index % 3})
                        errors += 1 if result.is_error else 0
                    except Exception:
                        errors += 1
    return errors


async def haproxy(folder):
    audits = [os.path.join(folder, f"audit-{name}.jsonl") for name in "ab"]
    with moya("--audit", audits[0]) as first, moya("--audit", audits[1]) as second:
        port = free_port()
        servers = "\n".join(f"    server {name} {re.search(r'//([^/]+)/', url).group(1)}"
                            for name, url in zip("ab", (first, second)))
        config = os.path.join(folder, "haproxy.cfg")
        with open(config, "w") as out:
            out.write(f"""global
    log stderr format raw local0 emerg
defaults
    mode http
    timeout connect 5s
    timeout client 60s
    timeout server 60s
frontend mcp
    bind 127.0.0.1:{port}
    default_backend moya
backend moya
    # 2026-07-28 is stateless: any instance answers. A 2025-11-25 session lives in the
    # instance that made it: its requests stick there by their Mcp-Session-Id.
    balance roundrobin
    stick-table type string len 64 size 100k expire 1h
    stick on req.hdr(mcp-session-id)
    stick store-response res.hdr(mcp-session-id)
{servers}
""")
        proxy = subprocess.Popen(["haproxy", "-f", config, "-db"], stderr=subprocess.DEVNULL)
        try:
            for _ in range(100):
                with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
                time.sleep(0.05)
            url = f"http://127.0.0.1:{port}/mcp"
            errors = await calls(url, "discover", 100)
            spread = [sum(1 for _ in open(path)) for path in audits]
            print(f"haproxy 2026-07-28: 100 calls, {errors} errors, both instances answered: "
                  f"{min(spread) > 0 and sum(spread) == 100}")
            errors = await calls(url, "initialize", 100)
            print(f"haproxy 2025-11-25: 100 calls, {errors} errors")
        finally:
            proxy.terminate()
            proxy.wait()


def base64url(number):
    raw = number.to_bytes((number.bit_length() + 7) // 8, "big")
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


async def oauth():
    import jwt
    from cryptography.hazmat.primitives.asymmetric import rsa

    from cryptography.hazmat.primitives.asymmetric import ed25519
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    edwards = ed25519.Ed25519PrivateKey.generate()
    numbers = key.public_key().public_numbers()
    raw = edwards.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    jwks = {"keys": [{"kty": "RSA", "kid": "k1", "use": "sig", "n": base64url(numbers.n), "e": base64url(numbers.e)},
                     {"kty": "OKP", "kid": "k2", "crv": "Ed25519",
                      "x": base64.urlsafe_b64encode(raw).rstrip(b"=").decode()}]}
    issuer = {}

    class Authority(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            documents = {"/.well-known/oauth-authorization-server": {"issuer": issuer["url"],
                                                                      "jwks_uri": issuer["url"] + "/jwks.json"},
                         "/jwks.json": jwks}
            if self.path not in documents:
                self.send_error(404)
                return
            body = json.dumps(documents[self.path]).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Authority)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    issuer["url"] = f"http://127.0.0.1:{server.server_port}"
    audience = "https://mcp.example.test/mcp"

    def token(algorithm="RS256", **claims):
        payload = {"iss": issuer["url"], "aud": audience, "sub": "ci", "exp": int(time.time()) + 600, **claims}
        if algorithm == "EdDSA":
            return jwt.encode(payload, edwards, algorithm="EdDSA", headers={"kid": "k2"})
        return jwt.encode(payload, key, algorithm=algorithm, headers={"kid": "k1"})

    with moya("--auth-issuer", issuer["url"], "--audience", audience) as url:
        errors = await calls(url, "discover", 3, headers={"Authorization": "Bearer " + token()})
        print(f"oauth: 3 calls with a token, {errors} errors")
        body = {"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}
        base = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
                "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "ping"}
        async with httpx2.AsyncClient() as client:
            for algorithm in ("PS256", "RS512", "EdDSA"):
                response = await client.post(url, json=body, headers={**base, "Authorization": "Bearer " + token(algorithm)})
                print(f"oauth {algorithm}: {response.status_code}")
            for label, extra in [("no token", {}),
                                 ("wrong audience", {"Authorization": "Bearer " + token(aud="https://other.test")}),
                                 ("expired", {"Authorization": "Bearer " + token(exp=int(time.time()) - 3600)})]:
                response = await client.post(url, json=body, headers={**base, **extra})
                challenge = response.headers.get("www-authenticate", "")
                print(f"oauth {label}: {response.status_code} {challenge}")
    server.shutdown()


async def main():
    with tempfile.TemporaryDirectory() as folder:
        for part in sys.argv[3:]:
            if part == "haproxy":
                await haproxy(folder)
            elif part == "oauth":
                await oauth()


asyncio.run(main())
