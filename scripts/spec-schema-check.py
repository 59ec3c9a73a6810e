#!/usr/bin/env python3
"""Holds schema/moya-cli-spec.schema.json to the compiler with Python's jsonschema, a second
validator beside MoyaSchema: every YAML file under the folders given that `moya-cli validate`
takes must validate (an Arazzo document against schema/arazzo.schema.json), and every invalid fixture marked `# schema: refuses` must not (those
unmarked that load must). Scalars are typed as YAML 1.2's core schema, as the compiler types
them: `yes` and `on` are text. Usage: spec-schema-check.py MOYA_CLI FOLDER..."""
import json, os, re, subprocess, sys

import jsonschema
import yaml


class CoreLoader(yaml.SafeLoader):
    """SafeLoader with YAML 1.2 core booleans only (true/false), not 1.1's yes/no/on/off."""


CoreLoader.yaml_implicit_resolvers = {
    key: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
CoreLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
schema = json.load(open(os.path.join(root, "schema/moya-cli-spec.schema.json")))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
# An Arazzo document (`arazzo:` at the top) that validate takes is held to moya-cli's Arazzo
# schema instead, by the same second validator.
arazzo = jsonschema.Draft202012Validator(json.load(open(os.path.join(root, "schema/arazzo.schema.json"))))
moya, folders = sys.argv[1], sys.argv[2:]
disagreements, valid, refused = [], 0, 0


def recursive(value, within=()):
    """Whether an alias refers to a node it is inside of, which the compiler's loader refuses."""
    if isinstance(value, (dict, list)):
        if id(value) in within:
            return True
        items = value.values() if isinstance(value, dict) else value
        return any(recursive(item, within + (id(value),)) for item in items)
    return False


def load(path):
    """The document, or None where the compiler's loader would not load it."""
    try:
        document = yaml.load(open(path, encoding="utf-8"), Loader=CoreLoader)
    except yaml.YAMLError:
        return None
    return None if recursive(document) else document


for folder in folders:
    for directory, _, files in sorted(os.walk(folder)):
        for name in sorted(files):
            if not name.endswith((".yaml", ".yml")):
                continue
            path = os.path.join(directory, name)
            if os.path.basename(directory) == "invalid":
                marked = "\n# schema: refuses" in open(path, encoding="utf-8").read()
                document = load(path)
                if document is None:
                    continue
                found = list(validator.iter_errors(document))
                if marked and not found:
                    disagreements.append(f"{path}: marked wrong in shape, and the schema takes it")
                elif not marked and found:
                    disagreements.append(f"{path}: the schema refuses it: {found[0].message}")
                refused += bool(found)
                continue
            ran = subprocess.run([moya, "validate", path], capture_output=True)
            if ran.returncode != 0:
                continue
            document = load(path)
            held = arazzo if isinstance(document, dict) and "arazzo" in document else validator
            found = list(held.iter_errors(document)) if document is not None else ["not loaded"]
            if found:
                disagreements.append(f"{path}: the compiler takes it, and the schema refuses it: {found[0]}")
            valid += 1

for line in disagreements:
    print(line)
print(f"jsonschema: {valid} specs valid, {refused} invalid fixtures refused, {len(disagreements)} disagreements")
sys.exit(1 if disagreements or valid == 0 else 0)
