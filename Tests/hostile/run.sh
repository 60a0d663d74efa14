#!/usr/bin/env bash
# Hostile clients against petapi and petmock (release builds), on loopback, about a minute.
# Writes Benchmarks/results/hostile.txt. Usage: Tests/hostile/run.sh [petapi|petmock|webhooks]
set -euo pipefail
cd "$(dirname "$0")/../.."
# The floods hold about 4,400 sockets in this client and as many in the server, which
# inherits the limit.
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt 8192 ]; then
    ulimit -n 8192 2>/dev/null || { echo "hostile: needs ulimit -n 8192 or more (have $(ulimit -n))" >&2; exit 2; }
fi
SWIFT=${SWIFT:-swift}
"$SWIFT" build -c release --product petapi >&2
SWIFT="$SWIFT" scripts/build-petmock.sh >/dev/null  # as `make serve` builds it
bin="$("$SWIFT" build -c release --show-bin-path)"
only=()
[ $# -gt 0 ] && only=(--only "$1")
python3 Tests/hostile/hostile.py --bin "$bin" --stubs Stubs --results Benchmarks/results/hostile.txt "${only[@]}"
