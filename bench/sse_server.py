"""A loopback event-stream server for bench/streams.sh, on asyncio alone.

GET /burst/N          N small SSE events (`data: {"n":I}`), written as fast as the socket takes them
GET /timed/N/MS       N SSE events MS ms apart, each `data: T` with T the wall clock in ns when written
GET /forever/SIZE/MS  SSE events of SIZE bytes of data every MS ms, until the client goes

Bodies are close-delimited (HTTP/1.1, Connection: close), as many SSE servers send them.
"""

import asyncio
import sys
import time

HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n"


async def handle(reader, writer):
    try:
        request = await reader.readuntil(b"\r\n\r\n")
        path = request.split(b" ", 2)[1].decode()
        parts = [p for p in path.split("/") if p]
        writer.write(HEAD)
        if parts[0] == "burst":
            count = int(parts[1])
            batch = 1000
            for start in range(0, count, batch):
                writer.write(b"".join(b'data: {"n":%d}\n\n' % i for i in range(start, min(start + batch, count))))
                await writer.drain()
        elif parts[0] == "timed":
            count, delay = int(parts[1]), int(parts[2]) / 1000
            for _ in range(count):
                writer.write(b"data: %d\n\n" % time.time_ns())
                await writer.drain()
                await asyncio.sleep(delay)
        elif parts[0] == "forever":
            size, delay = int(parts[1]), int(parts[2]) / 1000
            payload = b"x" * size
            n = 0
            while True:
                writer.write(b"id: %d\ndata: %s\n\n" % (n, payload))
                await writer.drain()
                n += 1
                await asyncio.sleep(delay)
    except (ConnectionError, asyncio.IncompleteReadError):
        pass
    finally:
        try:
            writer.close()
        except Exception:
            pass


async def main(port):
    server = await asyncio.start_server(handle, "127.0.0.1", port)
    async with server:
        await server.serve_forever()


asyncio.run(main(int(sys.argv[1])))
