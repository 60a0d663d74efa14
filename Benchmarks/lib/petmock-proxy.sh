#!/usr/bin/env bash
# The proxy figure of bench-petmock.sh alone: a petmock proxy stub (proxyBaseUrl) against nginx
# proxy_pass, both to the same local nginx serving the pet list, wrk -t2 -c64, repeated
# BENCH_REPEAT times (default 3) in alternation so the shared machine's load weighs on both.
# With PETMOCK_BASELINE=path, a second petmock (an earlier build) is measured in the same runs.
# Usage: Benchmarks/lib/petmock-proxy.sh PETMOCK DURATION (bench-petmock.sh calls it for
# BENCH_ONLY=proxy). Prints a table; writes nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
petmock="$1"
duration="${2:-5s}"
repeat="${BENCH_REPEAT:-3}"
baseline="${PETMOCK_BASELINE:-}"

# shellcheck source=servers.sh
source Benchmarks/lib/servers.sh

# The upstream (nginx) and the proxy stub's root, $work/proxy.
start_proxy_upstream "$petmock"
port_proxy="$(free_port)"
pids+=("$(start "$port_proxy" /api/pets "$petmock" serve --stubs "$work/proxy" --port "$port_proxy")")
port_baseline=""
if [ -n "$baseline" ]; then
    port_baseline="$(free_port)"
    pids+=("$(start "$port_baseline" /api/pets "$baseline" serve --stubs "$work/proxy" --port "$port_baseline")")
fi
port_nginx_proxy="$(free_port)"
proxy_nginx_conf "$port_nginx_proxy" "$port_nginx" > "$work/proxy-nginx/nginx.conf"
pids+=("$(start "$port_nginx_proxy" /api/pets nginx -p "$work/proxy-nginx" -c "$work/proxy-nginx/nginx.conf")")

# CPU time (user + system, clock ticks) of every process in a server's session: on a shared
# machine, CPU per request is steadier than requests per second.
ticks() { for p in $(pgrep -s "$1"); do cut -d' ' -f14,15 "/proc/$p/stat" 2>/dev/null; done | awk '{ t += $1 + $2 } END { print t + 0 }'; }
# "REQ/S CPU-MICROSECONDS-PER-REQUEST" for the server on PORT whose session is SID.
measure() {
    local before after out
    before="$(ticks "$2")"
    out="$(wrk -t2 -c64 -d"$duration" "http://127.0.0.1:$1/api/pets")"
    after="$(ticks "$2")"
    echo "$out" | awk '/Non-2xx|Socket errors/ { print > "/dev/stderr" }'
    echo "$out" | awk -v t="$((after - before))" -v hz="$(getconf CLK_TCK)" -v d="$duration" '
        /^Requests\/sec:/ { rps = $2 } /requests in/ { n = $1 }
        END { printf "%s %.1f\n", rps, (n > 0 ? t / hz * 1e6 / n : 0) }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
echo "proxy stub vs nginx proxy_pass ($(nproc) workers) to a local nginx, GET /api/pets, wrk -t2 -c64 -d$duration"
echo "machine: $(nproc) cores, $(uname -r), $(date -u +%Y-%m-%dT%H:%MZ), load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "req/s, and CPU µs per request (user+system of the proxy's processes; steadier on a busy machine)"
printf '%-4s %10s %7s %10s %7s %7s %7s' run petmock "cpu/req" nginx "cpu/req" ratio "cpu"
[ -n "$baseline" ] && printf ' %10s %7s %7s %7s %9s' baseline "cpu/req" ratio "cpu" "new/base"
echo
session_of() { ps -o sid= -p "$1" | tr -d ' '; }
sid_proxy="$(session_of "${pids[1]}")"; sid_nginx_proxy="$(session_of "${pids[-1]}")"
[ -n "$baseline" ] && sid_baseline="$(session_of "${pids[2]}")"
for n in $(seq "$repeat"); do
    read -r nginx_rps nginx_cpu <<< "$(measure "$port_nginx_proxy" "$sid_nginx_proxy")"
    read -r petmock_rps petmock_cpu <<< "$(measure "$port_proxy" "$sid_proxy")"
    printf '%-4s %10s %7s %10s %7s %7s %7s' "$n" "$petmock_rps" "$petmock_cpu" "$nginx_rps" "$nginx_cpu" \
        "$(ratio "$petmock_rps" "$nginx_rps")" "$(ratio "$nginx_cpu" "$petmock_cpu")"
    if [ -n "$baseline" ]; then
        read -r base_rps base_cpu <<< "$(measure "$port_baseline" "$sid_baseline")"
        printf ' %10s %7s %7s %7s %9s' "$base_rps" "$base_cpu" "$(ratio "$base_rps" "$nginx_rps")" \
            "$(ratio "$nginx_cpu" "$base_cpu")" "$(ratio "$petmock_rps" "$base_rps")"
    fi
    echo
done
echo "ratio: petmock req/s over nginx's; cpu: nginx's CPU per request over petmock's (both: higher is better)"
echo "target: proxy stub vs nginx proxy >= 0.80; load after: $(cut -d' ' -f1-3 /proc/loadavg)"
