#!/usr/bin/env python3
"""The credentials an imported spec sends, for bench/schemathesis.sh's all-checks run.

Prints shell words, one per line: `ENV NAME=VALUE` for each variable serve's environment gets,
and `ARG WORD` for each argument schemathesis gets, so that schemathesis sends the very value
serve holds requests to (a bearer token `t`, basic `u:p`, an API key header `k`). Query and
cookie keys are left out: schemathesis cannot add one to every request.
"""
import re
import sys

import yaml

spec = yaml.safe_load(open(sys.argv[1]))
variable = re.compile(r"\$\{([A-Z0-9_]+)(?::-[^}]*)?\}")
env, args, headers = {}, [], {}


def auths():
    yield spec.get("auth")
    for target in (spec.get("targets") or {}).values():
        yield (target or {}).get("auth")


def header_maps():
    yield spec.get("headers") or {}
    for target in (spec.get("targets") or {}).values():
        yield (target or {}).get("headers") or {}


scheme = None
for auth in auths():
    if isinstance(auth, dict) and "bearer" in auth:
        for name in variable.findall(str(auth["bearer"])):
            env[name] = "t"
        scheme = scheme or "bearer"
    elif isinstance(auth, dict) and "basic" in auth:
        basic = auth["basic"]
        for name in variable.findall(str(basic.get("user", ""))):
            env[name] = "u"
        for name in variable.findall(str(basic.get("password", ""))):
            env[name] = "p"
        scheme = scheme or "basic"
for block in header_maps():
    for name, value in block.items():
        value = value.get("value", "") if isinstance(value, dict) else str(value)
        found = variable.findall(value)
        if not found:
            continue
        sent = "Bearer t" if name.lower() == "authorization" else "k"
        for each in found:
            env[each] = sent
        headers[name] = sent
if scheme == "bearer":
    headers.setdefault("Authorization", "Bearer t")
elif scheme == "basic":
    args += ["--auth", "u:p"]
for name, value in headers.items():
    args += ["-H", f"{name}: {value}"]
for name, value in env.items():
    print(f"ENV {name}={value}")
for word in args:
    print(f"ARG {word}")
