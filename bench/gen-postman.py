#!/usr/bin/env python3
"""Writes a large Postman v2.1 collection to stdout, for bench/import-postman.sh: REQUESTS
requests (default 480) in 12 folders, each with headers, a query, a raw JSON body of about
5 KB and a saved example of about 2.5 KB, about 3.6 MB in all, the same bytes every run."""
import json
import random
import sys

requests = int(sys.argv[1]) if len(sys.argv) > 1 else 480
rng = random.Random(7)
words = ["order", "user", "item", "invoice", "shipment", "cart", "review", "coupon", "store", "report"]


def document(size):
    members = {}
    while len(json.dumps(members)) < size:
        key = rng.choice(words) + str(rng.randrange(1000))
        members[key] = {"id": rng.randrange(10**6), "name": " ".join(rng.choice(words) for _ in range(6)),
                        "tags": [rng.choice(words) for _ in range(4)], "price": round(rng.random() * 100, 2)}
    return members


folders = []
for f in range(12):
    items = []
    for r in range(requests // 12):
        resource = words[(f + r) % len(words)]
        method = ["GET", "POST", "PUT", "PATCH", "DELETE"][r % 5]
        request = {
            "method": method,
            "header": [{"key": "Accept", "value": "application/json"}, {"key": "X-Request-Id", "value": f"bench-{f}-{r}"}],
            "url": {"raw": "{{baseUrl}}/%ss/{{id}}?page=%d&size=50" % (resource, r),
                    "host": ["{{baseUrl}}"], "path": [resource + "s", "{{id}}"],
                    "query": [{"key": "page", "value": str(r)}, {"key": "size", "value": "50"}]},
        }
        if method in ("POST", "PUT", "PATCH"):
            request["body"] = {"mode": "raw", "raw": json.dumps(document(4300), indent=2),
                               "options": {"raw": {"language": "json"}}}
        items.append({"name": f"{method.title()} {resource} {r}", "request": request,
                      "response": [{"name": "OK", "code": 200, "header": [{"key": "Content-Type", "value": "application/json"}],
                                    "body": json.dumps(document(2100))}]})
    folders.append({"name": f"Folder {f} {words[f % len(words)]}s", "item": items})

collection = {
    "info": {"name": "Bench Shop", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
    "variable": [{"key": "baseUrl", "value": "https://api.bench.example/v1"}, {"key": "id", "value": "1"}],
    "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "{{token}}"}]},
    "item": folders,
}
json.dump(collection, sys.stdout, indent=1)
