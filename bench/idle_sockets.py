"""Holds N idle connections open to HOST:PORT from SOURCE, sending nothing, and opens a new
one whenever the server closes one: the attacker of bench/mcp-http.sh's attacked run.
Usage: idle_sockets.py HOST PORT N [SOURCE]; prints how many it holds when it starts holding
them all, and how many times the server closed one, when it is stopped (SIGTERM)."""
import selectors
import signal
import socket
import sys

host, port, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
source = sys.argv[4] if len(sys.argv) > 4 else "127.0.0.2"
selector = selectors.DefaultSelector()
closed = 0


def open_one():
    connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    connection.bind((source, 0))
    connection.setblocking(False)
    connection.connect_ex((host, port))
    selector.register(connection, selectors.EVENT_READ)


def stop(*_):
    print(f"idle sockets: the server closed {closed}", flush=True)
    sys.exit(0)


signal.signal(signal.SIGTERM, stop)
for _ in range(count):
    open_one()
print(f"idle sockets: holding {count} from {source}", flush=True)
while True:
    for key, _ in selector.select(timeout=1):
        try:
            data = key.fileobj.recv(4096)
        except OSError:
            data = b""
        if not data:
            selector.unregister(key.fileobj)
            key.fileobj.close()
            closed += 1
            open_one()
