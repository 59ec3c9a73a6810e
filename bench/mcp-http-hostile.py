"""`mcp --http` under the round-five attacks (issue 74), measured on the installed build:
1. 150 connections without a token each announce and send a 4 MiB body, then wait: the
   server's resident memory before and after, and how many were answered 401 and closed
   (findings 3: before the fix, 20 -> 646 MiB);
2. 4,100 idle sockets from one address (127.0.0.2), then a client from another (127.0.0.1):
   whether that client is answered, and in how long (finding 8: before, reset for 60 s).
Usage: mcp-http-hostile.py MOYA_CLI SPEC"""
import json, os, socket, subprocess, sys, tempfile, time

moya, spec = sys.argv[1], sys.argv[2]
folder = tempfile.mkdtemp()
jwks = os.path.join(folder, "jwks.json")
json.dump({"keys": [{"kty": "EC", "kid": "k", "crv": "P-256", "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
                     "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}]}, open(jwks, "w"))


def start():
    log = open(os.path.join(folder, "mcp.log"), "w+")
    process = subprocess.Popen([moya, "mcp", "--specs", spec, "--stub", "immediate", "--http", "127.0.0.1:0",
                                "--auth-issuer", "https://auth.test", "--audience", "https://mcp.test/mcp",
                                "--jwks", jwks], stderr=log)
    for _ in range(200):
        log.seek(0)
        text = log.read()
        if "/mcp" in text and "http://127.0.0.1:" in text:
            return process, int(text.split("http://127.0.0.1:")[1].split("/")[0])
        time.sleep(0.05)
    raise SystemExit("mcp did not start")


def rss(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) // 1024
    return 0


def bodies(port):
    process_rss = []
    connections = []
    head = (b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 4194304\r\n\r\n")
    chunk = b"x" * 65536
    for _ in range(150):
        connection = socket.create_connection(("127.0.0.1", port))
        connection.setblocking(False)
        connection.send(head)
        connections.append(connection)
    refused = 0
    for connection in connections:
        sent = 0
        for _ in range(64):
            try:
                sent += connection.send(chunk)
            except (BlockingIOError, BrokenPipeError, ConnectionResetError):
                break
    time.sleep(1)
    for connection in connections:
        connection.setblocking(True)
        connection.settimeout(2)
        try:
            if connection.recv(64).startswith(b"HTTP/1.1 401"):
                refused += 1
        except OSError:
            pass
    return connections, refused


def idle(port):
    held = []
    for _ in range(4100):
        connection = socket.socket()
        connection.bind(("127.0.0.2", 0))
        try:
            connection.connect(("127.0.0.1", port))
        except OSError:
            break
        held.append(connection)
    started = time.monotonic()
    client = socket.create_connection(("127.0.0.1", port), timeout=5)
    client.send(b"GET /.well-known/oauth-protected-resource/mcp HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    answer = client.recv(64)
    return held, answer.startswith(b"HTTP/1.1 200"), time.monotonic() - started


process, port = start()
time.sleep(0.5)
before = rss(process.pid)
connections, refused = bodies(port)
after = rss(process.pid)
print(f"bodies: rss {before} MiB before, {after} MiB with 150 x 4 MiB announced without a token; "
      f"{refused} of 150 answered 401 and closed")
for connection in connections:
    connection.close()
held, answered, seconds = idle(port)
print(f"idle sockets: {len(held)} held from 127.0.0.2; a client from 127.0.0.1 answered: {answered}, "
      f"in {seconds * 1000:.1f} ms")
for connection in held:
    connection.close()
process.terminate()
process.wait()
