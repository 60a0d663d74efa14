"""Times Python jsonschema on the same body and schema as contract-bench (best of N)."""
import importlib.metadata
import json
import sys
import time

import jsonschema

body_path, schema_path, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(schema_path, "rb") as f:
    schema = json.load(f)
with open(body_path, "rb") as f:
    raw = f.read()
validator = jsonschema.Draft202012Validator(schema)

def best(fn):
    fn()
    results = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        results.append(time.perf_counter() - start)
    return min(results) * 1000

errors = []
def parse_and_validate():
    errors[:] = list(validator.iter_errors(json.loads(raw)))

instance = json.loads(raw)
def validate_only():
    list(validator.iter_errors(instance))

print("jsonschema_version %s" % importlib.metadata.version("jsonschema"))
print("jsonschema_parse_validate_ms %.2f" % best(parse_and_validate))
print("jsonschema_validate_ms %.2f" % best(validate_only))
print("jsonschema_errors %d" % len(errors))
