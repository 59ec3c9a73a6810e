"""Python's load plus openapi-spec-validator, the peer of `moya-cli import openapi` in
bench/openapi.sh: JSON with the json module (the validator's own reader is a YAML reader,
which refuses two of the corpus's JSON documents), YAML with the validator's own reader,
then validate()."""
import json
import sys

from openapi_spec_validator import validate
from openapi_spec_validator.readers import read_from_filename

path = sys.argv[1]
if path.endswith(".json"):
    with open(path, encoding="utf-8") as handle:
        document = json.load(handle)
else:
    document, _ = read_from_filename(path)
validate(document)
