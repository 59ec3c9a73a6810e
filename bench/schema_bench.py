"""Python's side of bench/schema.sh.

  schema_bench.py prepare OUT     writes OUT/schema.json and OUT/instances.json: 10,000
                                  instances of the Asana corpus's largest schema, each
                                  checked valid by jsonschema first
  schema_bench.py jsonschema OUT RUNS      median milliseconds of one pass, jsonschema (PyPI)
  schema_bench.py jsonschema-rs OUT RUNS   the same with jsonschema-rs (PyPI)

The schema is OpenAPI 3.0's: draft 4 for both Python validators; no instance holds a null,
so `nullable` never decides.
"""
import json
import random
import statistics
import sys
import time

import yaml

CORPUS = "../shared/openapi-real/asana.yaml"  # from the repository root
NAME = "ProjectResponse"
COUNT = 10_000


def prepare(out):
    doc = yaml.safe_load(open(CORPUS))
    components = json.loads(json.dumps({"schemas": doc["components"]["schemas"]}, default=str))
    schema = {"$ref": f"#/components/schemas/{NAME}", "components": components}
    schemas = components["schemas"]
    rnd = random.Random(7)

    def gen(s, depth):
        if "$ref" in s:
            return gen(schemas[s["$ref"].split("/")[-1]], depth + 1)
        if "allOf" in s:
            merged = {}
            for part in s["allOf"]:
                value = gen(part, depth + 1)
                if isinstance(value, dict):
                    merged.update(value)
            return merged
        for key in ("oneOf", "anyOf"):
            if key in s:
                return gen(s[key][0], depth + 1)
        if "enum" in s:
            return rnd.choice([v for v in s["enum"] if v is not None])
        kind = s.get("type") or ("object" if "properties" in s else "string")
        if kind == "object":
            props = s.get("properties", {})
            names = props if depth < 6 else s.get("required", [])
            return {name: gen(props[name], depth + 1) for name in names if name in props}
        if kind == "array":
            if depth > 6:
                return []
            return [gen(s.get("items", {}), depth + 1) for _ in range(rnd.randint(0, 3))]
        if kind == "integer":
            return rnd.randint(0, 10_000)
        if kind == "number":
            return rnd.random() * 100
        if kind == "boolean":
            return rnd.random() < 0.5
        fmt = s.get("format")
        if fmt == "date-time":
            return "2026-%02d-%02dT10:00:00Z" % (rnd.randint(1, 12), rnd.randint(1, 28))
        if fmt == "date":
            return "2026-%02d-%02d" % (rnd.randint(1, 12), rnd.randint(1, 28))
        return "".join(rnd.choice("abcdefghij") for _ in range(rnd.randint(3, 12)))

    import jsonschema
    validator = jsonschema.Draft4Validator(schema)
    instances = []
    while len(instances) < COUNT:
        instance = gen(schema, 0)
        validator.validate(instance)
        instances.append(instance)
    json.dump(schema, open(f"{out}/schema.json", "w"))
    json.dump(instances, open(f"{out}/instances.json", "w"))


def timed(out, runs, is_valid_for):
    schema = json.load(open(f"{out}/schema.json"))
    instances = json.load(open(f"{out}/instances.json"))
    is_valid = is_valid_for(schema)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        invalid = sum(0 if is_valid(i) else 1 for i in instances)
        times.append((time.perf_counter() - start) * 1000)
        assert invalid == 0, f"{invalid} invalid"
    print("%.1f" % statistics.median(times))


def main():
    mode, out = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    if mode == "prepare":
        prepare(out)
    elif mode == "jsonschema":
        import jsonschema
        timed(out, runs, lambda s: jsonschema.Draft4Validator(s).is_valid)
    elif mode == "jsonschema-rs":
        import jsonschema_rs
        timed(out, runs, lambda s: jsonschema_rs.Draft4Validator(s).is_valid)


main()
