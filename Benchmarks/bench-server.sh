#!/usr/bin/env bash
# HTTPServer against nginx on loopback, same body, same run: throughput at 64 connections,
# latency at 1 connection, our peak RSS and time from process start to first response; the
# poll(2) back end (PETKIT_POLLER=poll) is measured beside epoll, without a target. Writes Benchmarks/results/server.txt. Usage: Benchmarks/bench-server.sh [DURATION]
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-10s}"
scripts/install-deps.sh wrk nginx-light python3 procps zlib1g-dev
swift build -c release --product ServerBench >&2

body='[{"firstName":"Rex","lastName":"Smith","vetId":1},{"firstName":"Bella","lastName":"Jones","vetId":2},{"firstName":"Max","lastName":"Brown","vetId":3}]'
work="$(mktemp -d)"
ours_pid=""
poll_pid=""
nginx_pid=""
cleanup() {
    [ -n "$ours_pid" ] && kill "$ours_pid" 2>/dev/null || true
    [ -n "$poll_pid" ] && kill "$poll_pid" 2>/dev/null || true
    [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
ours_port="$(free_port)"
nginx_port="$(free_port)"
poll_port="$(free_port)"

mkdir -p "$work/logs"
cat > "$work/nginx.conf" <<CONF
worker_processes 2;
daemon off;
pid $work/nginx.pid;
error_log $work/logs/error.log crit;
events { worker_connections 1024; }
http {
    access_log off;
    keepalive_requests 1000000;
    server {
        listen 127.0.0.1:$nginx_port;
        location / { default_type application/json; return 200 '$body'; }
    }
}
CONF
nginx_start="$(python3 Benchmarks/first-response.py "$nginx_port" nginx -p "$work" -c "$work/nginx.conf")"
nginx_pid="${nginx_start%% *}"

ours_start="$(python3 Benchmarks/first-response.py "$ours_port" .build/release/ServerBench --port "$ours_port")"
ours_pid="${ours_start%% *}"
ours_first_ms="${ours_start##* }"
poll_start="$(PETKIT_POLLER=poll python3 Benchmarks/first-response.py "$poll_port" .build/release/ServerBench --port "$poll_port")"
poll_pid="${poll_start%% *}"

# wrk prints latency percentiles as 19.00us / 1.20ms / 1.00s; convert to microseconds.
micros() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) print n; else if (v ~ /ms$/) print n * 1000; else print n * 1000000 }'; }

ours_c64="$(wrk -t2 -c64 -d"$duration" --latency "http://127.0.0.1:$ours_port/")"
nginx_c64="$(wrk -t2 -c64 -d"$duration" --latency "http://127.0.0.1:$nginx_port/")"
ours_c1="$(wrk -t1 -c1 -d"$duration" --latency "http://127.0.0.1:$ours_port/")"
nginx_c1="$(wrk -t1 -c1 -d"$duration" --latency "http://127.0.0.1:$nginx_port/")"
poll_c64="$(wrk -t2 -c64 -d"$duration" --latency "http://127.0.0.1:$poll_port/")"
poll_c1="$(wrk -t1 -c1 -d"$duration" --latency "http://127.0.0.1:$poll_port/")"

rps() { echo "$1" | awk '/^Requests\/sec:/ { print $2 }'; }
pct() { micros "$(echo "$1" | awk -v p="$2" '$1 == p { print $2 }')"; }
errors() { echo "$1" | awk '/Non-2xx|Socket errors/ { print }' | tr '\n' ' '; }

ours_rss_kb="$(awk '/^VmHWM:/ { print $2 }' "/proc/$ours_pid/status")"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

report="$(
    echo "HTTPServer vs nginx $(nginx -v 2>&1 | sed 's/.*nginx\///') (2 workers), loopback, 150-byte JSON body, wrk $duration"
    echo "machine: $(nproc) cores, $(uname -r), $(date -u +%Y-%m-%dT%H:%MZ)"
    echo
    printf '%-28s %14s %14s %8s\n' "figure" "HTTPServerKit" "nginx" "ratio"
    printf '%-28s %14s %14s %8s\n' "req/s, -t2 -c64" "$(rps "$ours_c64")" "$(rps "$nginx_c64")" "$(ratio "$(rps "$ours_c64")" "$(rps "$nginx_c64")")"
    printf '%-28s %14s %14s %8s\n' "p50 us, -t2 -c64" "$(pct "$ours_c64" 50%)" "$(pct "$nginx_c64" 50%)" "$(ratio "$(pct "$ours_c64" 50%)" "$(pct "$nginx_c64" 50%)")"
    printf '%-28s %14s %14s %8s\n' "p99 us, -t2 -c64" "$(pct "$ours_c64" 99%)" "$(pct "$nginx_c64" 99%)" "$(ratio "$(pct "$ours_c64" 99%)" "$(pct "$nginx_c64" 99%)")"
    printf '%-28s %14s %14s %8s\n' "req/s, -t1 -c1" "$(rps "$ours_c1")" "$(rps "$nginx_c1")" "$(ratio "$(rps "$ours_c1")" "$(rps "$nginx_c1")")"
    printf '%-28s %14s %14s %8s\n' "p50 us, -t1 -c1" "$(pct "$ours_c1" 50%)" "$(pct "$nginx_c1" 50%)" "$(ratio "$(pct "$ours_c1" 50%)" "$(pct "$nginx_c1" 50%)")"
    printf '%-28s %14s %14s %8s\n' "p99 us, -t1 -c1" "$(pct "$ours_c1" 99%)" "$(pct "$nginx_c1" 99%)" "$(ratio "$(pct "$ours_c1" 99%)" "$(pct "$nginx_c1" 99%)")"
    echo
    echo "poll(2) back end (PETKIT_POLLER=poll), same run, no target:"
    printf '%-28s %14s %14s %8s\n' "figure" "poll(2)" "epoll" "ratio"
    printf '%-28s %14s %14s %8s\n' "req/s, -t2 -c64" "$(rps "$poll_c64")" "$(rps "$ours_c64")" "$(ratio "$(rps "$poll_c64")" "$(rps "$ours_c64")")"
    printf '%-28s %14s %14s %8s\n' "p99 us, -t2 -c64" "$(pct "$poll_c64" 99%)" "$(pct "$ours_c64" 99%)" "$(ratio "$(pct "$poll_c64" 99%)" "$(pct "$ours_c64" 99%)")"
    printf '%-28s %14s %14s %8s\n' "p50 us, -t1 -c1" "$(pct "$poll_c1" 50%)" "$(pct "$ours_c1" 50%)" "$(ratio "$(pct "$poll_c1" 50%)" "$(pct "$ours_c1" 50%)")"
    printf '%-28s %14s %14s %8s\n' "p99 us, -t1 -c1" "$(pct "$poll_c1" 99%)" "$(pct "$ours_c1" 99%)" "$(ratio "$(pct "$poll_c1" 99%)" "$(pct "$ours_c1" 99%)")"
    echo
    echo "HTTPServer peak RSS (VmHWM): $((ours_rss_kb / 1024)).$(((ours_rss_kb % 1024) * 10 / 1024)) MB (target < 20 MB)"
    echo "HTTPServer process start to first response: ${ours_first_ms} ms (target < 50 ms)"
    echo "targets: c64 req/s ratio >= 0.80; c1 p50 ratio <= 2.00"
    for name in ours_c64 nginx_c64 ours_c1 nginx_c1 poll_c64 poll_c1; do
        problems="$(errors "${!name}")"
        [ -n "$problems" ] && echo "$name: $problems"
    done
    true
)"
echo "$report"
mkdir -p Benchmarks/results
echo "$report" > Benchmarks/results/server.txt
