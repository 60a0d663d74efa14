#!/usr/bin/env bash
# Hostile clients against petapi and petmock (release builds), on loopback, about a minute.
# Writes Benchmarks/results/hostile.txt. Usage: Tests/hostile/run.sh [petapi|petmock]
set -euo pipefail
cd "$(dirname "$0")/../.."
SWIFT=${SWIFT:-swift}
"$SWIFT" build -c release --product petapi >&2
"$SWIFT" build -c release --product petmock >&2
bin="$("$SWIFT" build -c release --show-bin-path)"
only=()
[ $# -gt 0 ] && only=(--only "$1")
python3 Tests/hostile/hostile.py --bin "$bin" --stubs Stubs --results Benchmarks/results/hostile.txt "${only[@]}"
