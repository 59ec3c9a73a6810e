#!/usr/bin/env python3
"""Drives `moya-cli mcp` over stdio for bench/mcp.sh, with raw JSON-RPC lines.

    mcp_driver.py list MOYA SPEC RUNS    time to the first tools/list page, and peak RSS
    mcp_driver.py calls MOYA SPEC N      stubbed tool calls per second, one at a time
"""
import json
import statistics
import subprocess
import sys
import time

INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}}


def start(moya, spec):
    return subprocess.Popen([moya, "mcp", "--specs", spec, "--stub", "immediate"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)


def send(process, message):
    process.stdin.write((json.dumps(message) + "\n").encode())


def answer(process, ident):
    while True:
        line = process.stdout.readline()
        if not line:
            raise SystemExit("the server closed stdout")
        message = json.loads(line)
        if message.get("id") == ident:
            return message


def peak_rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


def first_page(moya, spec, runs):
    times, peaks, tools = [], [], 0
    for _ in range(runs):
        began = time.perf_counter()
        process = start(moya, spec)
        send(process, INIT)
        send(process, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        send(process, {"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        page = answer(process, 1)
        times.append(time.perf_counter() - began)
        tools = len(page["result"]["tools"])
        # The second page waits for every spec to be compiled: the peak is read after it.
        send(process, {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"cursor": page["result"]["nextCursor"]}})
        answer(process, 2)
        peaks.append(peak_rss_mb(process.pid))
        process.stdin.close()
        process.wait()
    print(f"first page ({tools} tools): median {statistics.median(times) * 1000:.1f} ms, "
          f"min {min(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms; "
          f"peak RSS, all compiled, median {statistics.median(peaks):.1f} MB, max {max(peaks):.1f} MB ({runs} runs)")


def calls(moya, spec, count):
    process = start(moya, spec)
    send(process, INIT)
    answer(process, 0)
    call = {"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "bench.user", "arguments": {}}}
    for ident in range(1, 201):
        send(process, dict(call, id=ident))
        answer(process, ident)
    began = time.perf_counter()
    for ident in range(1000, 1000 + count):
        send(process, dict(call, id=ident))
        answer(process, ident)
    seconds = time.perf_counter() - began
    process.stdin.close()
    process.wait()
    print(f"over stdio: {count / seconds:.0f} calls/s, {seconds / count * 1e6:.0f} us a call round trip")


if __name__ == "__main__":
    mode, moya, spec, amount = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    if mode == "list":
        first_page(moya, spec, amount)
    else:
        calls(moya, spec, amount)
