#!/usr/bin/env bash
# URLSession round trips per second through a bare URLProtocol (the floor), through a
# StubURLSessionHost answering from a StubServer in process, and through the same StubServer
# over loopback; and the resident memory per host for 1,000 hosts kept. Writes
# Benchmarks/results/urlsession-stubs.txt.
# Usage: Benchmarks/bench-urlsession-stubs.sh [REQUESTS-PER-ROUND] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product urlsession-stub-bench >&2
report="$("$(swift build -c release --show-bin-path)/urlsession-stub-bench" "${1:-20000}" "${2:-3}")"
echo "$report"
mkdir -p Benchmarks/results
echo "$report" > Benchmarks/results/urlsession-stubs.txt
