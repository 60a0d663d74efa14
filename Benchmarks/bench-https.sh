#!/usr/bin/env bash
# petmock --https-port against nginx over TLS on loopback, in one run: the same certificate (the
# local CA's, from petmock's --ca-dir), the same body (Stubs/'s /api/pets), wrk -t2 -c64 over
# kept-alive TLS connections. Beside it, the same pair over plain HTTP from the same processes,
# which must stay where bench-petmock.sh puts it (the TLS layer costs a plain connection one
# test per read and write). Rounds alternate (nginx, petmock, petmock, nginx); each ratio is the
# median of the rounds'. Writes Benchmarks/results/https.txt.
# Usage: Benchmarks/bench-https.sh [DURATION] [ROUNDS]   (PETMOCK=PATH: that binary, no build)
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-10s}"
rounds="${2:-3}"
scripts/install-deps.sh wrk nginx-light python3 curl
nginx -V 2>&1 | grep -q -- --with-http_ssl_module || { echo "nginx has no ssl module" >&2; exit 2; }
petmock="${PETMOCK:-$(scripts/build-petmock.sh)}"

# shellcheck source=lib/servers.sh
source Benchmarks/lib/servers.sh

ca="$work/ca"
"$petmock" cert --ca-dir "$ca" > /dev/null
port_plain="$(free_port)"; port_tls="$(free_port)"; nginx_plain="$(free_port)"; nginx_tls="$(free_port)"
pids+=("$(start "$port_plain" /api/pets "$petmock" serve --stubs Stubs --port "$port_plain" \
    --https-port "$port_tls" --ca-dir "$ca")")

mkdir -p "$work/www/api" "$work/logs"
curl -fsS "http://127.0.0.1:$port_plain/api/pets" > "$work/www/api/pets"
cat > "$work/nginx.conf" <<CONF
worker_processes $(nproc);
daemon off;
pid $work/nginx.pid;
error_log $work/logs/error.log crit;
events { worker_connections 1024; }
http {
    access_log off;
    keepalive_requests 1000000;
    open_file_cache max=16;
    ssl_certificate $ca/localhost.pem;
    ssl_certificate_key $ca/localhost-key.pem;
    server {
        listen 127.0.0.1:$nginx_plain;
        listen 127.0.0.1:$nginx_tls ssl;
        root $work/www;
        location = /api/pets { default_type application/json; }
    }
}
CONF
pids+=("$(start "$nginx_plain" /api/pets nginx -p "$work" -c "$work/nginx.conf")")

# Both answer the same bytes over TLS, trusted through the CA.
a="$(curl -fsS --cacert "$ca/ca.pem" "https://localhost:$port_tls/api/pets")"
b="$(curl -fsS --cacert "$ca/ca.pem" "https://localhost:$nginx_tls/api/pets")"
[ "$a" = "$b" ] || { echo "petmock's HTTPS body differs from nginx's" >&2; exit 1; }

run() { wrk -t2 -c64 -d"$duration" "$1://localhost:$2/api/pets" | awk '/^Requests\/sec:/ { print $2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
mean() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (a + b) / 2 }'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

out="Benchmarks/results/https.txt"
{
    echo "petmock vs $(nginx -v 2>&1 | sed 's|nginx version: ||') ($(nproc) workers), loopback, GET /api/pets ($(wc -c < "$work/www/api/pets")-byte JSON), wrk -t2 -c64 -d$duration"
    echo "same certificate (EC P-256 from petmock's local CA), kept-alive connections; $rounds rounds (nginx, petmock, petmock, nginx)"
    echo "machine: $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out"
tls_ratios=(); plain_ratios=(); tls_p=(); tls_n=(); plain_p=(); plain_n=()
for round in $(seq "$rounds"); do
    n1="$(run https "$nginx_tls")"; p1="$(run https "$port_tls")"; p2="$(run https "$port_tls")"; n2="$(run https "$nginx_tls")"
    tp="$(mean "$p1" "$p2")"; tn="$(mean "$n1" "$n2")"
    q1="$(run http "$nginx_plain")"; r1="$(run http "$port_plain")"; r2="$(run http "$port_plain")"; q2="$(run http "$nginx_plain")"
    pp="$(mean "$r1" "$r2")"; pn="$(mean "$q1" "$q2")"
    tls_ratios+=("$(ratio "$tp" "$tn")"); plain_ratios+=("$(ratio "$pp" "$pn")")
    tls_p+=("$tp"); tls_n+=("$tn"); plain_p+=("$pp"); plain_n+=("$pn")
    printf 'round %d: HTTPS petmock %s req/s, nginx %s (%s); HTTP petmock %s, nginx %s (%s)\n' "$round" \
        "$tp" "$tn" "${tls_ratios[-1]}" "$pp" "$pn" "${plain_ratios[-1]}" | tee -a "$out"
done
tls="$(median "${tls_ratios[@]}")"; plain="$(median "${plain_ratios[@]}")"
met() { awk -v r="$1" -v t="$2" 'BEGIN { print (r >= t) ? "yes" : "NO" }'; }
{
    trap stop_servers EXIT  # a subshell (piped to tee): lib/servers.sh
    printf '%-34s %10s %10s %6s %8s %4s\n' figure petmock nginx ratio target met
    printf '%-34s %10s %10s %6s %8s %4s\n' "HTTPS req/s (median of rounds)" "$(median "${tls_p[@]}")" "$(median "${tls_n[@]}")" "$tls" ">= 0.8" "$(met "$tls" 0.8)"
    printf '%-34s %10s %10s %6s %8s %4s\n' "plain HTTP req/s, same processes" "$(median "${plain_p[@]}")" "$(median "${plain_n[@]}")" "$plain" ">= 0.9" "$(met "$plain" 0.9)"
    echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee -a "$out"
