#!/usr/bin/env python3
"""Fails when a target's source imports a module that Package.swift does not declare for it.

Reads `swift package dump-package`, then every `import X` in each target's folder (modules
of the toolchain and the system aside). Exits 1 listing each target and what it leaves out.
"""
import json
import os
import re
import subprocess
import sys

SYSTEM = {
    "Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Glibc", "Musl",
    "Darwin", "Dispatch", "Synchronization", "XCTest", "Testing", "_Concurrency",
}
# swift-nio-ssl's BoringSSL, which no product declares: weighed in bench/RESULTS.md
# ("Bearer tokens' signatures: three ways weighed").
UNDECLARABLE = {"CNIOBoringSSL"}
IMPORT = re.compile(r"^\s*(?:@testable |@_exported |package |public |internal )?import ([A-Z_]\w*)", re.M)

package = json.loads(subprocess.run(["swift", "package", "dump-package"], capture_output=True, text=True,
                                     check=True).stdout)
failed = False
for target in package["targets"]:
    name = target["name"]
    path = target.get("path") or ("Tests/" if target["type"] == "test" else "Sources/") + name
    declared = {name}
    for dependency in target["dependencies"]:
        for kind in ("byName", "product", "target"):
            if kind in dependency:
                declared.add(dependency[kind][0])
    imported = set()
    for root, _, files in os.walk(path):
        for file in files:
            if file.endswith(".swift"):
                with open(os.path.join(root, file), encoding="utf-8") as source:
                    imported.update(IMPORT.findall(source.read()))
    missing = sorted(imported - declared - SYSTEM - UNDECLARABLE)
    if missing:
        failed = True
        print(f"{name} imports what Package.swift does not declare for it: {', '.join(missing)}")
sys.exit(1 if failed else 0)
