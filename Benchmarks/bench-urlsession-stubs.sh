#!/usr/bin/env bash
# URLSession round trips per second through a bare URLProtocol (the floor), through a
# StubSession (petmock's engine in process), and through a StubServer over loopback; and the
# resident memory per session for 1,000 StubSessions kept. Target: at least 0.8x the floor's
# round trips per second, and memory bounded per session. Writes
# Benchmarks/results/urlsession-stubs.txt.
# Usage: Benchmarks/bench-urlsession-stubs.sh [REQUESTS-PER-ROUND] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product urlsession-stub-bench >&2
report="$("$(swift build -c release --show-bin-path)/urlsession-stub-bench" "${1:-20000}" "${2:-3}")"
echo "$report"
mkdir -p Benchmarks/results
echo "$report" > Benchmarks/results/urlsession-stubs.txt
