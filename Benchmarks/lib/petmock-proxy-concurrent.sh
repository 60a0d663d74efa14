#!/usr/bin/env bash
# Two proxies measured at the same time: each gets its own wrk (-t1 -c32) for the same DURATION,
# both to the same local nginx upstream, and each one's CPU time (user + system, all threads)
# per request is printed. Run side by side, both see the same load from the rest of the machine,
# so the ratio of their CPU per request moves far less than req/s measured one after the other.
# B is PETMOCK_BASELINE (another build, or the same one) started with PETMOCK_BASELINE_ARGS
# (`--journal-size 0`, say), or nginx proxy_pass when PETMOCK_BASELINE is not set.
# Usage: Benchmarks/lib/petmock-proxy-concurrent.sh PETMOCK DURATION [ROUNDS] (bench-petmock.sh
# calls it for BENCH_ONLY=proxy-concurrent). Prints a table; writes nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
petmock="$1"
duration="${2:-8s}"
rounds="${3:-3}"
baseline="${PETMOCK_BASELINE:-}"
read -r -a baseline_args <<< "${PETMOCK_BASELINE_ARGS:-}"

# shellcheck source=servers.sh
source Benchmarks/lib/servers.sh

# The upstream (nginx) and the proxy stub's root, $work/proxy.
start_proxy_upstream "$petmock"

port_a="$(free_port)"
pid_a="$(start "$port_a" /api/pets "$petmock" serve --stubs "$work/proxy" --port "$port_a")"
pids+=("$pid_a")
port_b="$(free_port)"
if [ -n "$baseline" ]; then
    name_b="baseline${PETMOCK_BASELINE_ARGS:+ ${PETMOCK_BASELINE_ARGS}}"
    pid_b="$(start "$port_b" /api/pets "$baseline" serve --stubs "$work/proxy" --port "$port_b" "${baseline_args[@]}")"
else
    name_b="nginx proxy_pass"
    proxy_nginx_conf "$port_b" "$port_nginx" > "$work/proxy-nginx/nginx.conf"
    pid_b="$(start "$port_b" /api/pets nginx -p "$work/proxy-nginx" -c "$work/proxy-nginx/nginx.conf")"
fi
pids+=("$pid_b")

both() {
    wrk -t1 -c32 -d"$1" "http://127.0.0.1:$port_a/api/pets" > "$work/a.txt" &
    wrk -t1 -c32 -d"$1" "http://127.0.0.1:$port_b/api/pets" > "$work/b.txt"
    wait
}
requests() { awk '/requests in/ { print $1 }' "$1"; }

both 2s  # warm-up: connections, and petmock's journal on its way to full
echo "petmock (A) and $name_b (B) at the same time, each wrk -t1 -c32 -d$duration, to one local nginx"
echo "machine: $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ), load before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-5s %10s %9s %10s %9s %9s\n' round "A req" "A µs/req" "B req" "B µs/req" "B/A cpu"
hz="$(getconf CLK_TCK)"
for round in $(seq "$rounds"); do
    a0="$(ticks "$pid_a")"; b0="$(ticks "$pid_b")"
    both "$duration"
    a1="$(ticks "$pid_a")"; b1="$(ticks "$pid_b")"
    awk -v r="$round" -v na="$(requests "$work/a.txt")" -v nb="$(requests "$work/b.txt")" \
        -v ta=$((a1 - a0)) -v tb=$((b1 - b0)) -v hz="$hz" 'BEGIN {
        ca = ta / hz * 1e6 / na; cb = tb / hz * 1e6 / nb
        printf "%-5s %10d %9.1f %10d %9.1f %9.2f\n", r, na, ca, nb, cb, cb / ca }'
done
echo "B/A cpu: B's CPU per request over A's (above 1: A spends less)"
