#!/usr/bin/env bash
# Contract check of a 50,000-pet body (~3 MB) against the contract derived from PetModels:
# ours (parse + schema walk, and with decoding by the real Codable type) vs Python jsonschema
# on the same body and schema, and vs Foundation's JSONSerialization parse alone; plus peak
# memory of one check. Targets: >= 20x faster than jsonschema, <= 3x the bare
# parse, peak memory < 5x the body size. Results go to Benchmarks/results/contract.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=Benchmarks/.work/contract
RESULTS=Benchmarks/results/contract.txt
RUNS=${RUNS:-5}
mkdir -p "$WORK" Benchmarks/results

swift build -c release --product contract-bench >/dev/null
BIN=$(swift build -c release --show-bin-path)/contract-bench
"$BIN" prepare "$WORK" >/dev/null

if [ ! -x Benchmarks/.work/venv/bin/python ]; then
    python3 -m venv Benchmarks/.work/venv
    Benchmarks/.work/venv/bin/pip install --quiet jsonschema
fi

ours=$("$BIN" time "$WORK")
memory=$("$BIN" memory "$WORK")
python=$(Benchmarks/.work/venv/bin/python Benchmarks/jsonschema_bench.py "$WORK/pets-50000.json" "$WORK/pets.schema.json" "$RUNS")

value() { printf '%s\n' "$1" | awk -v key="$2" '$1 == key { print $2 }'; }
bytes=$(value "$ours" bytes)
validate=$(value "$ours" ours_validate_ms)
decode=$(value "$ours" ours_validate_decode_ms)
parse=$(value "$ours" ours_parse_ms)
drifted=$(value "$ours" ours_validate_drifted_ms)
drifted_findings=$(value "$ours" drifted_findings)
foundation=$(value "$ours" jsonserialization_parse_ms)
js_full=$(value "$python" jsonschema_parse_validate_ms)
js_validate=$(value "$python" jsonschema_validate_ms)
js_version=$(value "$python" jsonschema_version)
js_errors=$(value "$python" jsonschema_errors)
findings=$(value "$ours" findings)
extra=$(value "$memory" validate_extra_peak_kb)
extra_decode=$(value "$memory" validate_decode_extra_peak_kb)
baseline=$(value "$memory" baseline_rss_kb)

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; }
{
    echo "# bench-contract: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(nproc) cores, $(uname -sr)"
    echo "body: 50,000 pets, $bytes bytes; schema: the GET /pets response of the contract ($findings findings, jsonschema $js_errors errors)"
    echo
    printf '%-52s %10s\n' "measure (best of runs)" "ms"
    printf '%-52s %10s\n' "ours: parse + schema walk (ContractValidator)" "$validate"
    printf '%-52s %10s\n' "ours: parse + schema walk + JSONDecoder [PetJsonModel]" "$decode"
    printf '%-52s %10s\n' "ours: JSONKit parse alone" "$parse"
    printf '%-52s %10s\n' "ours: every vetId a string ($drifted_findings collapsed finding)" "$drifted"
    printf '%-52s %10s\n' "Foundation JSONSerialization parse alone" "$foundation"
    printf '%-52s %10s\n' "Python jsonschema $js_version: json.loads + iter_errors" "$js_full"
    printf '%-52s %10s\n' "Python jsonschema $js_version: iter_errors alone" "$js_validate"
    echo
    echo "speed-up vs jsonschema (parse + validate, same bytes in):   $(ratio "$js_full" "$validate")x   (target >= 20x)"
    echo "speed-up vs jsonschema validate alone (ours incl. parse):   $(ratio "$js_validate" "$validate")x"
    echo "ours / JSONSerialization parse:                             $(ratio "$validate" "$foundation")x   (target <= 3x)"
    echo "ours with decoding / JSONSerialization parse:               $(ratio "$decode" "$foundation")x"
    echo "extra peak RSS of one check over the RSS with the body loaded (baseline $baseline KB):"
    echo "  schema walk:       $extra KB = $(ratio "$((extra * 1024))" "$bytes")x the body   (target < 5x)"
    echo "  with decoding:     $extra_decode KB = $(ratio "$((extra_decode * 1024))" "$bytes")x the body"
} | tee "$RESULTS"
