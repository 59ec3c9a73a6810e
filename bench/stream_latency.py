"""Reads a stream's output from stdin as it comes and prints the latency of each event: the
wall clock when its line is read here, less the time the server wrote into it (bench/sse_server.py
/timed). Takes lines `T` (moya-cli call) or `data: T` (curl -N). Prints median and p99 in ms."""

import os
import statistics
import sys
import time

delays = []
pending = b""
while True:
    chunk = os.read(0, 65536)
    now = time.time_ns()
    if not chunk:
        break
    pending += chunk
    *lines, pending = pending.split(b"\n")
    for line in lines:
        line = line.removeprefix(b"data: ").strip()
        if line.isdigit():
            delays.append((now - int(line)) / 1e6)
delays.sort()
p99 = delays[min(len(delays) - 1, int(len(delays) * 0.99))]
print(f"{sys.argv[1]}: {len(delays)} events, median {statistics.median(delays):.3f} ms, p99 {p99:.3f} ms")
