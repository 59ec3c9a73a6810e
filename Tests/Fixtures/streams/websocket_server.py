"""A WebSocket server for WebSocketTests, on the `websockets` package (PyPI).

Listens on 127.0.0.1 at a free port, which it prints on its first line, and serves:
- /echo: sends "welcome authorized" (or "welcome anonymous" when the Authorization header is
  not `Bearer s3cret`), then sends each message back as it came;
- /close: closes at once, with code 1000;
- /big: sends one message of 17 MiB, more than moya-cli holds by default.
"""

import asyncio

from websockets.asyncio.server import serve


async def handler(socket):
    if socket.request.path == "/close":
        await socket.close(1000)
        return
    if socket.request.path == "/big":
        await socket.send("x" * (17 << 20))
        await socket.wait_closed()
        return
    authorized = socket.request.headers.get("Authorization") == "Bearer s3cret"
    await socket.send("welcome " + ("authorized" if authorized else "anonymous"))
    async for message in socket:
        await socket.send(message)


async def main():
    async with serve(handler, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        print(port, flush=True)
        await asyncio.get_running_loop().create_future()


asyncio.run(main())
