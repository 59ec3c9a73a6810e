"""Fails when the folders of a module refer to each other in a cycle (issue 39: MoyaRuntime's
folders form no cycle). A folder refers to another when one of its files names a type the
other declares at the top level.

  python3 scripts/folder-cycles.py Sources/MoyaRuntime
"""
import os
import re
import sys

module = sys.argv[1] if len(sys.argv) > 1 else "Sources/MoyaRuntime"
declaration = re.compile(r"^(?:public |package |internal |private |fileprivate |final )*(?:struct|class|enum|protocol|actor|typealias) (\w+)", re.M)
comment = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
string = re.compile(r'"(?:\\.|[^"\\\n])*"')

folders = {}
for folder in sorted(os.listdir(module)):
    path = os.path.join(module, folder)
    if os.path.isdir(path):
        texts = []
        for name in sorted(os.listdir(path)):
            if name.endswith(".swift"):
                texts.append(open(os.path.join(path, name)).read())
        folders[folder] = string.sub('""', comment.sub("", "\n".join(texts)))

declared = {folder: set(declaration.findall(text)) for folder, text in folders.items()}
edges = {folder: set() for folder in folders}
for folder, text in folders.items():
    words = set(re.findall(r"\b[A-Z]\w*\b", text))
    for other, names in declared.items():
        if other != folder and words & names:
            edges[folder].add(other)

# Tarjan's strongly connected components.
index = {}
low = {}
stack = []
on_stack = set()
components = []
counter = [0]


def visit(node):
    index[node] = low[node] = counter[0]
    counter[0] += 1
    stack.append(node)
    on_stack.add(node)
    for target in sorted(edges[node]):
        if target not in index:
            visit(target)
            low[node] = min(low[node], low[target])
        elif target in on_stack:
            low[node] = min(low[node], index[target])
    if low[node] == index[node]:
        component = []
        while True:
            member = stack.pop()
            on_stack.discard(member)
            component.append(member)
            if member == node:
                break
        components.append(sorted(component))


for folder in sorted(folders):
    if folder not in index:
        visit(folder)

for folder in sorted(folders):
    print(f"{folder}: {', '.join(sorted(edges[folder])) or '-'}")
cycles = [c for c in components if len(c) > 1]
if cycles:
    for cycle in cycles:
        print(f"cycle: {' <-> '.join(cycle)}")
        for folder in cycle:
            for other in cycle:
                if other in edges[folder]:
                    names = sorted(set(re.findall(r"\b[A-Z]\w*\b", folders[folder])) & declared[other])
                    print(f"  {folder} -> {other}: {', '.join(names)}")
    sys.exit(1)
print(f"{module}: no cycles between its folders")
