#!/usr/bin/env bash
# petcontract's OpenAPI benchmarks. (1) Load GitHub's whole REST description (3 MB JSON, 2.4 MB YAML;
# Benchmarks/data, MIT): parse, read into a contract, and compile every response schema as
# `verify` does before its first call; best of RUNS, peak memory; target load < 300 ms.
# (2) petcontract vs Schemathesis (PyPI, in a venv) on the same petmock server serving the
# OpenAPI Initiative's petstore, healthy and drifted (two planted drifts): wall time, requests
# the server saw, drifted operations found and false alarms; target >= 10x faster, no false
# alarm, no drift Schemathesis finds missed. Results go to Benchmarks/results/openapi.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=Benchmarks/.work/openapi
RESULTS=Benchmarks/results/openapi.txt
export RUNS=${RUNS:-5}
EXAMPLES=${EXAMPLES:-50}
mkdir -p "$WORK" Benchmarks/results

for product in openapi-bench petcontract petmock; do swift build -c release --product "$product" >&2; done
BIN=$(swift build -c release --show-bin-path)
if [ ! -x Benchmarks/.work/venv-schemathesis/bin/schemathesis ]; then
    python3 -m venv Benchmarks/.work/venv-schemathesis
    Benchmarks/.work/venv-schemathesis/bin/pip install --quiet schemathesis
fi
ST=Benchmarks/.work/venv-schemathesis/bin/schemathesis
PY=Benchmarks/.work/venv-schemathesis/bin/python

# (1) The whole GitHub description.
gunzip -c Benchmarks/data/api.github.com.json.gz >"$WORK/api.github.com.json"
gunzip -c Benchmarks/data/api.github.com.yaml.gz >"$WORK/api.github.com.yaml"
json=$("$BIN/openapi-bench" time "$WORK/api.github.com.json")
yaml=$("$BIN/openapi-bench" time "$WORK/api.github.com.yaml")
json_memory=$("$BIN/openapi-bench" memory "$WORK/api.github.com.json")
yaml_memory=$("$BIN/openapi-bench" memory "$WORK/api.github.com.yaml")
value() { printf '%s\n' "$1" | awk -v key="$2" '$1 == key { print $2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; }

# (2) The same petmock server, healthy then drifted, for both tools.
SPEC=Tests/ContractKitTests/Fixtures/oai/petstore.yaml
write_stubs() { # DIR LIST_BODY ONE_BODY
    mkdir -p "$1/mappings"
    cat >"$1/mappings/pets.json" <<JSON
{"mappings": [
  {"request": {"method": "GET", "urlPath": "/pets"},
   "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "jsonBody": $2}},
  {"request": {"method": "GET", "urlPathPattern": "/pets/.+"},
   "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "jsonBody": $3}},
  {"request": {"method": "POST", "urlPath": "/pets"}, "response": {"status": 201}}
]}
JSON
}
rm -rf "$WORK/healthy" "$WORK/drifted"
write_stubs "$WORK/healthy" '[{"id": 1, "name": "Rex", "tag": "dog"}, {"id": 2, "name": "Tom", "tag": "cat"}]' \
    '{"id": 1, "name": "Rex", "tag": "dog"}'
# Drift 1: GET /pets gives ids as strings. Drift 2: GET /pets/{petId} lost the required name.
write_stubs "$WORK/drifted" '[{"id": "1", "name": "Rex", "tag": "dog"}, {"id": "2", "name": "Tom", "tag": "cat"}]' \
    '{"id": 1, "tag": "dog"}'

PORT=$($PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
BASE="http://127.0.0.1:$PORT"
now_ms() { date +%s%3N; }
requests_seen() {
    curl -s -X POST "$BASE/__admin/requests/count" -d '{"method": "ANY", "urlPattern": "/pets.*"}' |
        $PY -c 'import json, sys; print(json.load(sys.stdin)["count"])'
}

# Prints: wall_ms requests operations_with_findings
run_petcontract() {
    curl -s -X DELETE "$BASE/__admin/requests" >/dev/null
    local start end
    start=$(now_ms)
    "$BIN/petcontract" verify --live "$BASE" --contract "$SPEC" --param petId=1 --methods GET,POST \
        --format json --output "$WORK/petcontract-$1.json" >/dev/null || true
    end=$(now_ms)
    local found
    found=$($PY -c 'import json, sys
report = json.load(open(sys.argv[1]))
print(len({f["operation"] for f in report["findings"] if f["level"] != "info"}))' "$WORK/petcontract-$1.json")
    echo "$((end - start)) $(requests_seen) $found"
}

run_schemathesis() {
    curl -s -X DELETE "$BASE/__admin/requests" >/dev/null
    local start end
    start=$(now_ms)
    "$ST" run "$SPEC" --url "$BASE" --mode positive --max-examples "$EXAMPLES" --seed 1 --workers 1 \
        --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
        --report junit --report-junit-path "$WORK/schemathesis-$1.xml" --no-color >"$WORK/schemathesis-$1.txt" 2>&1 || true
    end=$(now_ms)
    local found
    found=$($PY -c 'import sys, xml.etree.ElementTree as ET
cases = ET.parse(sys.argv[1]).getroot().iter("testcase")
print(sum(1 for case in cases if case.find("failure") is not None or case.find("error") is not None))' \
        "$WORK/schemathesis-$1.xml")
    echo "$((end - start)) $(requests_seen) $found"
}

declare -A figures
for state in healthy drifted; do
    "$BIN/petmock" serve --stubs "$WORK/$state" --port "$PORT" --journal-size 100000 >"$WORK/petmock-$state.log" 2>&1 &
    mock=$!
    for _ in $(seq 100); do curl -sf "$BASE/__admin/health" >/dev/null 2>&1 && break; sleep 0.05; done
    figures[ours_$state]=$(run_petcontract "$state")
    figures[theirs_$state]=$(run_schemathesis "$state")
    kill "$mock"
    wait "$mock" 2>/dev/null || true
done
field() { echo "${figures[$1]}" | awk -v n="$2" '{ print $n }'; }
st_version=$("$ST" --version | awk '{ print $NF }')

{
    echo "# bench-openapi: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(nproc) cores, $(uname -sr)"
    echo
    echo "(1) GitHub's REST description (github/rest-api-description a6c95e0, $(value "$json" operations) operations, $(value "$json" components) schemas), best of $RUNS"
    printf '%-44s %12s %12s\n' "measure" "JSON" "YAML"
    printf '%-44s %12s %12s\n' "bytes" "$(value "$json" bytes)" "$(value "$yaml" bytes)"
    printf '%-44s %12s %12s\n' "parse alone (JSONKit / YAMLKit), ms" "$(value "$json" parse_ms)" "$(value "$yaml" parse_ms)"
    printf '%-44s %12s %12s\n' "load: read into a contract, ms" "$(value "$json" load_ms)" "$(value "$yaml" load_ms)"
    printf '%-44s %12s %12s\n' "load + compile every response schema, ms" "$(value "$json" prepare_ms)" "$(value "$yaml" prepare_ms)"
    printf '%-44s %12s %12s\n' "extra peak RSS of load + compile, KB" "$(value "$json_memory" prepare_extra_peak_kb)" "$(value "$yaml_memory" prepare_extra_peak_kb)"
    printf '%-44s %12s\n' "Foundation JSONSerialization parse, ms" "$(value "$json" jsonserialization_ms)"
    echo
    echo "JSON load / 300 ms target:                 $(ratio "$(value "$json" load_ms)" 300)   (target < 1)"
    echo "YAML load / 300 ms target:                 $(ratio "$(value "$yaml" load_ms)" 300)"
    echo "JSON load / JSONSerialization parse alone: $(ratio "$(value "$json" load_ms)" "$(value "$json" jsonserialization_ms)")x"
    echo
    echo "(2) petcontract vs Schemathesis $st_version on one petmock server ($SPEC: 3 operations; drifted: 2 planted drifts)"
    echo "    Schemathesis: --mode positive --max-examples $EXAMPLES --seed 1 --workers 1, response checks only"
    echo "    petcontract: verify --live --param petId=1 --methods GET,POST"
    printf '%-34s %12s %12s %8s\n' "measure" "petcontract" "Schemathesis" "ratio"
    for state in healthy drifted; do
        ours_ms=$(field "ours_$state" 1)
        theirs_ms=$(field "theirs_$state" 1)
        printf '%-34s %12s %12s %7sx\n' "$state: wall time, ms" "$ours_ms" "$theirs_ms" "$(ratio "$theirs_ms" "$ours_ms")"
        printf '%-34s %12s %12s\n' "$state: requests the server saw" "$(field "ours_$state" 2)" "$(field "theirs_$state" 2)"
    done
    printf '%-34s %12s %12s\n' "drifted: operations found (of 2)" "$(field ours_drifted 3)" "$(field theirs_drifted 3)"
    printf '%-34s %12s %12s\n' "healthy: false alarms (operations)" "$(field ours_healthy 3)" "$(field theirs_healthy 3)"
} | tee "$RESULTS"
