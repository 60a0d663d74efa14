#!/usr/bin/env bash
# The proxy figure counted in instructions, which a shared machine does not move: the user-space
# instructions (valgrind's cachegrind) that a petmock proxy stub and nginx proxy_pass (one
# worker) each execute per proxied GET /api/pets, to the same local nginx upstream, on one
# kept-alive connection, after a warm-up that fills petmock's journal (so evicting its oldest
# entry is counted). Each server runs twice, with W requests and with W + N; the difference
# over N is the figure. With PETMOCK_BASELINE=path, an earlier build is counted the same way.
# Kernel time (the reads and sends) is not counted; the wrk figures of petmock-proxy.sh are.
# Usage: Benchmarks/lib/petmock-proxy-instructions.sh PETMOCK [N] (bench-petmock.sh calls it
# for BENCH_ONLY=proxy-instructions). Prints a table; writes nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
petmock="$1"
count="${2:-2000}"
warm=10500  # more than petmock's journal keeps (10,000): the runs measure its steady state
baseline="${PETMOCK_BASELINE:-}"
scripts/install-deps.sh valgrind binutils

# shellcheck source=servers.sh
source Benchmarks/lib/servers.sh

# The upstream (nginx) and the proxy stub's root, $work/proxy.
start_proxy_upstream "$petmock"

proxy_nginx_conf '{PORT}' "$port_nginx" \
    | sed -e 's/^worker_processes .*/worker_processes 1; master_process off;/' > "$work/proxy-nginx/nginx.conf.in"
nginx_count() {
    local port
    port="$(free_port)"
    sed "s/{PORT}/$port/" "$work/proxy-nginx/nginx.conf.in" > "$work/proxy-nginx/nginx.conf"
    local a b
    a="$(count_run 0 "$port" /api/pets nginx -p "$work/proxy-nginx" -c "$work/proxy-nginx/nginx.conf")"
    port="$(free_port)"
    sed "s/{PORT}/$port/" "$work/proxy-nginx/nginx.conf.in" > "$work/proxy-nginx/nginx.conf"
    b="$(count_run "$count" "$port" /api/pets nginx -p "$work/proxy-nginx" -c "$work/proxy-nginx/nginx.conf")"
    echo $(((b - a) / count))
}

echo "instructions per proxied GET /api/pets (user space, cachegrind), one kept-alive connection, $count requests after $warm"
ours="$(per_request /api/pets "$(stripped "$petmock" petmock)" serve --stubs "$work/proxy" --port '{PORT}')"
reference="$(nginx_count)"
printf '%-28s %10s\n' petmock "$ours" "nginx proxy_pass (1 worker)" "$reference"
printf 'ratio: %s (nginx over petmock; the wrk figure is the target: proxy >= 0.80 of nginx)\n' \
    "$(awk -v a="$reference" -v b="$ours" 'BEGIN { printf "%.2f", a / b }')"
if [ -n "$baseline" ]; then
    base="$(per_request /api/pets "$(stripped "$baseline" baseline)" serve --stubs "$work/proxy" --port '{PORT}')"
    printf '%-28s %10s (this build over it: %s)\n' baseline "$base" \
        "$(awk -v a="$ours" -v b="$base" 'BEGIN { printf "%.2f", a / b }')"
fi
