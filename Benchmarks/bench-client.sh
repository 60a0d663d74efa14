#!/usr/bin/env bash
# The reference client against petmock: 1,000 pets sharing 50 vets, every response 20 ms late.
# petvet (ViewModelBuilder: pets once, each distinct vet once, 8 in flight) against the seeds'
# way (one vet request per pet) in the same run, with the two-round-trip lower bound and the
# target. Writes Benchmarks/results/client.txt. Usage: Benchmarks/bench-client.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh python3 libcurl4-openssl-dev zlib1g-dev
scripts/build-petmock.sh >/dev/null  # as `make serve` builds it
swift build -c release --product petvet >&2
swift build -c release --product ClientBench >&2
bin="$(swift build -c release --show-bin-path)"

pets=1000
vets=50
delay=20
concurrency=8
work="$(mktemp -d)"
server=""
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$work/stubs/mappings"
python3 - "$work/stubs/mappings" "$pets" "$vets" "$delay" <<'PY'
import json, sys
folder, pets, vets, delay = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
json_type = {"Content-Type": "application/json"}
mappings = [{"request": {"method": "GET", "urlPath": "/api/pets"},
             "response": {"status": 200, "headers": json_type, "fixedDelayMilliseconds": delay,
                          "jsonBody": [{"firstName": f"Pet{n}", "lastName": "Bench", "vetId": n % vets + 1}
                                       for n in range(pets)]}}]
for vet in range(1, vets + 1):
    mappings.append({"request": {"method": "GET", "url": f"/api/vets/{vet}"},
                     "response": {"status": 200, "headers": json_type, "fixedDelayMilliseconds": delay,
                                  "jsonBody": {"firstName": f"Vet{vet}", "lastName": "Bench", "title": "DVM"}}})
json.dump({"mappings": mappings}, open(f"{folder}/bench.json", "w"))
PY

"$bin/petmock" serve --stubs "$work/stubs" --port 0 > "$work/petmock.out" 2> "$work/petmock.err" &
server=$!
for _ in $(seq 200); do
    grep -q "http://" "$work/petmock.err" 2>/dev/null && break  # its log line, on standard error
    kill -0 "$server" 2>/dev/null || { cat "$work/petmock.err" >&2; exit 1; }
    python3 -c 'import time; time.sleep(0.05)'
done
base="$(grep -o 'http://[0-9.:]*' "$work/petmock.err" | head -1)/api"

# Runs a command and prints "WALL_MS PEAK_RSS_KB" then its stdout, measured by the parent.
measure() {
    python3 - "$@" <<'PY'
import resource, subprocess, sys, time
start = time.monotonic()
result = subprocess.run(sys.argv[1:], capture_output=True, text=True)
wall = (time.monotonic() - start) * 1000
if result.returncode != 0:
    sys.stderr.write(result.stderr)
    sys.exit(result.returncode)
print(f"{wall:.0f} {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}")
print(result.stdout.strip())
PY
}

# Warm the connection path once so neither side pays for first-use costs.
"$bin/ClientBench" ours "$base" "$concurrency" > /dev/null

petvet_out="$(measure "$bin/petvet" --base-url "$base" --format json --concurrency "$concurrency")"
petvet_wall="$(echo "$petvet_out" | head -1 | cut -d' ' -f1)"
petvet_rss_kb="$(echo "$petvet_out" | head -1 | cut -d' ' -f2)"
petvet_requests="$(echo "$petvet_out" | tail -1 | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["requests"], len(r["rows"]), len(r["dropped"]))')"
ours="$("$bin/ClientBench" ours "$base" "$concurrency")"
seeds="$("$bin/ClientBench" seeds "$base")"
field() { echo "$1" | tr ' ' '\n' | awk -F= -v k="$2" '$1 == k { print $2 }'; }

distinct=$vets
expected_requests=$((1 + distinct))
bound_ms=$((2 * delay))
target_ms=$(( (1 + (distinct + concurrency - 1) / concurrency) * delay + 50 ))
report="$(
    echo "Reference client vs the seeds' way: $pets pets sharing $distinct vets, petmock, every response ${delay} ms late"
    echo "machine: $(nproc) cores, $(uname -r), $(date -u +%Y-%m-%dT%H:%MZ); vet requests in flight: $concurrency"
    echo
    printf '%-34s %10s %10s %8s %6s\n' "run" "requests" "wall ms" "rows" "RSS MB"
    printf '%-34s %10s %10s %8s %6s\n' "petvet (ViewModelBuilder)" "$(echo "$petvet_requests" | cut -d' ' -f1)" "$petvet_wall" "$(echo "$petvet_requests" | cut -d' ' -f2)" "$(awk -v k="$petvet_rss_kb" 'BEGIN { printf "%.1f", k / 1024 }')"
    printf '%-34s %10s %10s %8s %6s\n' "ClientBench ours (in process)" "$(field "$ours" requests)" "$(field "$ours" wall_ms)" "$(field "$ours" rows)" "-"
    printf '%-34s %10s %10s %8s %6s\n' "ClientBench seeds (1 per pet)" "$(field "$seeds" requests)" "$(field "$seeds" wall_ms)" "$(field "$seeds" rows)" "-"
    echo
    echo "lower bound: two round trips = $bound_ms ms; target: exactly $expected_requests requests, wall <= $target_ms ms ((1 + ceil($distinct/$concurrency)) x $delay + 50), RSS < 30 MB"
    echo "ours / seeds wall time: $(awk -v a="$(field "$ours" wall_ms)" -v b="$(field "$seeds" wall_ms)" 'BEGIN { printf "%.3f", a / b }')"
    echo "petvet wall includes process start; ClientBench ours is the builder alone"
)"
echo "$report"
mkdir -p Benchmarks/results
echo "$report" > Benchmarks/results/client.txt
