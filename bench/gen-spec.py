#!/usr/bin/env python3
"""Writes a spec with N targets (default 5,000) that exercises params, templates, tasks and samples."""
import sys

count = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
out = sys.stdout
out.write("service: big\nbaseURL: https://api.example.com\nheaders: { Accept: application/json }\ntargets:\n")
for i in range(count):
    kind = i % 4
    out.write(f"  target{i}:\n    summary: Target number {i}\n")
    if kind == 0:
        out.write(f"    params: {{ id: int }}\n    path: /items/{i}/{{id}}\n")
        out.write("    sample: { json: { id: \"{id}\", name: Item, tags: [a, b] } }\n")
    elif kind == 1:
        out.write("    method: POST\n    params:\n      name: string\n      size: { type: int, default: 10, description: Page size }\n")
        out.write(f"    path: /items{i}\n    task:\n      parameters: {{ name: \"{{name}}\", size: \"{{size}}\" }}\n      encoding: json\n")
        out.write("    sample: { status: 201, json: { id: 1, name: \"{name}\" } }\n")
    elif kind == 2:
        out.write(f"    path: /search{i}\n    params: {{ q: string, lang: {{ enum: {{ english: en, german: de }}, default: english }} }}\n")
        out.write("    task:\n      parameters:\n        - q: \"{q}\"\n        - lang: \"{lang}\"\n      encoding: queryString\n")
        out.write("    samples:\n      empty: { status: 404, json: { message: none } }\n")
    else:
        out.write(f"    method: PUT\n    path: /blobs/{i}\n    headers: {{ X-Trace: \"t{i}\" }}\n    task: {{ data: hello, contentType: text/plain }}\n")
