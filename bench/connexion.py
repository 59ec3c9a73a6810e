#!/usr/bin/env python3
"""Requests mean what the document says: connexion (PyPI, --mock=all) serves each document of
the real corpus and validates every request against it. For each operation with an array,
boolean or object query, header or path parameter, moya-cli imports the document and calls
the target live against connexion, with the check's example values for required params and
values for those params (two items of each array, true for each boolean). connexion answers
400 to a request whose parameters do not match the document; this counts them.

Security is taken out of the served copy: the measure is how parameters are serialised, and
connexion's mock cannot check OAuth tokens.

    python3 bench/connexion.py [MOYA_CLI] [CORPUS_DIR]

With --every, every target is called instead, as its `example` check gives it (a file param
gets a small file): whether connexion accepts each request the imported spec sends, bodies
(JSON, form, multipart, binary) included. A 400, 415 or 422 counts as refused.

    python3 bench/connexion.py --every [MOYA_CLI] [CORPUS_DIR]
"""
import json, os, re, socket, subprocess, sys, tempfile, time, urllib.parse
import yaml

every = "--every" in sys.argv
arguments = [a for a in sys.argv[1:] if a != "--every"]
moya = arguments[0] if len(arguments) > 0 else ".build/debug/moya-cli"
corpus = arguments[1] if len(arguments) > 1 else "../shared/openapi-real"


def load(path):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle) if path.endswith(".json") else yaml.load(handle, Loader=yaml.CSafeLoader)


def resolve(document, node):
    seen = 0
    while isinstance(node, dict) and "$ref" in node and seen < 20:
        ref = node["$ref"]
        if not ref.startswith("#/"):
            return {}
        node = document
        for part in ref[2:].split("/"):
            node = node.get(part.replace("~1", "/").replace("~0", "~"), {}) if isinstance(node, dict) else {}
        seen += 1
    return node


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def value_for(document, schema, index=0):
    schema = resolve(document, schema or {})
    if "enum" in schema and schema["enum"]:
        return schema["enum"][min(index, len(schema["enum"]) - 1)]
    if "example" in schema:
        return schema["example"]
    kind = schema.get("type")
    if kind == "integer":
        return int(schema.get("minimum", 1)) + index
    if kind == "number":
        return float(schema.get("minimum", 1)) + index
    if kind == "boolean":
        return True
    fmt = schema.get("format")
    if fmt == "date-time":
        return "2024-01-01T00:00:00Z"
    if fmt == "date":
        return "2024-01-01"
    return "ab"[index % 2] + "x"


def text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        # An object param is given as JSON text.
        return json.dumps(value)
    return str(value)


def check_args(target):
    """`name=value` arguments with the values the target's first check gives."""
    args = []
    for check in target.get("checks", []) or []:
        for key, value in (check.get("params") or {}).items():
            for item_value in value if isinstance(value, list) else [value]:
                args.append(f"{key}={text(item_value)}")
        break
    return args


def main():
    totals = {"calls": 0, "rejected": 0, "other": 0}
    rows = []
    for name in sorted(os.listdir(corpus)):
        if not (name.endswith(".yaml") or name.endswith(".json")):
            continue
        path = os.path.join(corpus, name)
        document = load(path)
        work = tempfile.mkdtemp(prefix="connexion-")
        served = dict(document)
        served.pop("security", None)
        served["paths"] = {}
        for route, item in document.get("paths", {}).items():
            copy = {}
            for key, operation in item.items():
                if isinstance(operation, dict) and key in ("get", "put", "post", "delete", "patch", "head", "options"):
                    operation = dict(operation)
                    operation.pop("security", None)
                copy[key] = operation
            served["paths"][route] = copy
        served_path = os.path.join(work, "served.json")
        # connexion reads a document as a Jinja template: braces in its text are spaced out.
        served_text = json.dumps(served, default=str)
        for opening in ("{{", "{%", "{#"):
            served_text = served_text.replace(opening, opening[0] + " " + opening[1])
        with open(served_path, "w") as handle:
            handle.write(served_text)
        spec = os.path.join(work, "spec.yaml")
        subprocess.run([moya, "import", "openapi", path, "-o", spec], check=True, capture_output=True)
        with open(spec, encoding="utf-8") as handle:
            imported = yaml.safe_load(handle)
        base = re.match(r'\$\{([A-Z0-9_]+):-', imported["baseURL"])
        server = (document.get("servers") or [{"url": "/"}])[0]["url"]
        base_path = urllib.parse.urlparse(re.sub(r"\{[^}]*\}", "x", server)).path.rstrip("/")
        port = free_port()
        log = open(os.path.join(work, "connexion.log"), "w")
        process = subprocess.Popen(
            ["connexion", "run", served_path, "--mock=all", "--port", str(port)], stdout=log, stderr=log)
        try:
            for _ in range(600):
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    time.sleep(0.1)
            targets = {}
            for target_name, target in (imported.get("targets") or {}).items():
                key = (target.get("method", "GET").lower(), re.sub(r"\{[^}]*\}", "{}", re.sub(r"[.;][^/{]*(?=\{)", "", target["path"])))
                targets[key] = (target_name, target)
            calls = rejected = other = 0
            environment = dict(os.environ)
            # The service's base URL, and each target's own (an operation's `servers`): connexion
            # serves every path under the document's first server's path.
            with open(spec, encoding="utf-8") as handle:
                for variable in set(re.findall(r'\$\{([A-Z0-9_]+):-https?://', handle.read())):
                    environment[variable] = f"http://127.0.0.1:{port}{base_path}"

            def call(target_name, args, refusals):
                """Calls the target live; its status, 0 for no response. Refusals are printed."""
                result = subprocess.run(
                    [moya, "call", f"{imported['service']}.{target_name}", "--specs", spec, "-i", "--raw"] + args,
                    capture_output=True, text=True, env=environment)
                status = re.match(r"HTTP/\S+ (\d+)", result.stdout)
                code = int(status.group(1)) if status else 0
                if code in refusals:
                    print(f"  {name} {target_name}: {code} {result.stdout[-300:]!r}", file=sys.stderr)
                elif code == 0:
                    print(f"  {name} {target_name}: no response {result.stderr[-200:]!r}", file=sys.stderr)
                return code

            upload = os.path.join(work, "upload.bin")
            with open(upload, "wb") as handle:
                handle.write(b"moya-cli upload\n")
            for target_name, target in ((imported.get("targets") or {}) if every else {}).items():
                args = check_args(target)
                for param_name, param in (target.get("params") or {}).items():
                    kind = param.get("type") if isinstance(param, dict) else param
                    given = any(a.startswith(param_name + "=") for a in args)
                    if kind in ("file", "[file]") and not given:
                        args.append(f"{param_name}={upload}")
                    elif kind == "string" and not given and "{" + param_name + "}" in target.get("path", ""):
                        # A path param a check does not give (its check gave up on a file).
                        args.append(f"{param_name}=1")
                code = call(target_name, args, (400, 415, 422))
                calls += 1
                rejected += code in (400, 415, 422)
                other += code == 0
            for route, item in ({} if every else document.get("paths", {})).items():
                shared = item.get("parameters", [])
                for method, operation in item.items():
                    if method not in ("get", "put", "post", "delete", "patch") or not isinstance(operation, dict):
                        continue
                    parameters = [resolve(document, p) for p in shared + operation.get("parameters", [])]
                    interesting = [
                        p for p in parameters
                        if p.get("in") in ("query", "header", "path")
                        and resolve(document, p.get("schema", {})).get("type") in ("array", "boolean", "object")
                    ]
                    if not interesting:
                        continue
                    found = targets.get((method, re.sub(r"\{[^}]*\}", "{}", route)))
                    if not found:
                        continue
                    target_name, target = found
                    args = check_args(target)
                    params = target.get("params", {}) or {}
                    for parameter in interesting:
                        schema = resolve(document, parameter.get("schema", {}))
                        param_name = re.sub(r"[^A-Za-z0-9_-]+", "_", parameter["name"]).strip("_-")
                        if param_name not in params:
                            continue
                        args = [a for a in args if not a.startswith(param_name + "=")]
                        if schema.get("type") == "array":
                            for index in range(2):
                                args.append(f"{param_name}={text(value_for(document, schema.get('items'), index))}")
                        elif schema.get("type") == "boolean":
                            args.append(f"{param_name}=true")
                        else:
                            args.append(f"{param_name}={json.dumps(value_for(document, schema))}")
                    code = call(target_name, args, (400,))
                    calls += 1
                    rejected += code == 400
                    other += code == 0
            rows.append((name, calls, rejected, other))
            totals["calls"] += calls
            totals["rejected"] += rejected
            totals["other"] += other
        finally:
            process.terminate()
            process.wait()
    print("| document | calls | rejected (400) | no answer |")
    print("| --- | --- | --- | --- |")
    for name, calls, rejected, other in rows:
        print(f"| {name} | {calls} | {rejected} | {other} |")
    print(f"| all | {totals['calls']} | {totals['rejected']} | {totals['other']} |")


main()
