#!/usr/bin/env bash
# The CPU cost of a templated stub's answer beside the same bytes served plain, in process
# (template-bench: thread CPU time, best of the rounds, so a loaded machine weighs far less than
# on bench-petmock's wrk pair). Writes Benchmarks/results/template.txt.
# Usage: Benchmarks/bench-template.sh [REQUESTS-PER-ROUND] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product template-bench >&2
report="$("$(swift build -c release --show-bin-path)/template-bench" "${1:-50000}" "${2:-5}")"
echo "$report"
mkdir -p Benchmarks/results
echo "$report" > Benchmarks/results/template.txt
