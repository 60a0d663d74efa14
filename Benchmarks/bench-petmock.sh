#!/usr/bin/env bash
# petmock against nginx on loopback, same body, same run; then petmock with 1 and with 1,000
# mappings (the target stub last in priority), a templated stub against the same answer
# canned, and process start to first response with 1,000 mappings. Writes Benchmarks/results/petmock.txt.
# Each figure is printed beside its reference from the same run and its target.
# Usage: Benchmarks/bench-petmock.sh [DURATION]   (BENCH_ROUNDS=N: rounds of every pair, 3 by default)
#        BENCH_ONLY=templating Benchmarks/bench-petmock.sh [DURATION] [ROUNDS]
#   runs only the templated-vs-plain pair, ROUNDS times (3 by default), and prints each round's
#   ratio (results/petmock.txt is left alone).
#        BENCH_ONLY=proxy Benchmarks/bench-petmock.sh [DURATION]
#   runs only the proxy figure (see below).
#        BENCH_ONLY=proxy-instructions Benchmarks/bench-petmock.sh [N]
#   counts the instructions per proxied request of petmock and nginx under valgrind (see
#   lib/petmock-proxy-instructions.sh).
#        BENCH_ONLY=proxy-concurrent Benchmarks/bench-petmock.sh [DURATION] [ROUNDS]
#   runs petmock's proxy stub and another proxy at the same time and compares their CPU per
#   request (see lib/petmock-proxy-concurrent.sh).
#        BENCH_ONLY=webhook Benchmarks/bench-petmock.sh [DURATION] [ROUNDS]
#   a stub with a webhook against the same stub without it, side by side in one run (see
#   lib/petmock-webhook.sh).
#        BENCH_ONLY=webhook-instructions Benchmarks/bench-petmock.sh [N]
#   counts petmock's instructions per request of the webhook stub and of the same stub without
#   it (see lib/petmock-webhook-instructions.sh).
#        BENCH_ONLY=ab PETMOCK_BASELINE=PATH Benchmarks/bench-petmock.sh [DURATION] [ROUNDS]
#   measures this build against an earlier one side by side in one run: Stubs/, the proxy stub,
#   templated and 1,000 mappings, and peak RSS (see lib/petmock-ab.sh).
#   PETMOCK=PATH measures that binary instead of building one.
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-10s}"
only="${BENCH_ONLY:-}"
case "$only" in
    "" | templating | proxy | proxy-instructions | proxy-concurrent | ab | webhook | webhook-instructions) ;;
    *) echo "BENCH_ONLY: expected 'templating', 'proxy', 'proxy-instructions', 'proxy-concurrent', 'ab', 'webhook', 'webhook-instructions' or nothing, found '$only'" >&2
       exit 64 ;;
esac
scripts/install-deps.sh wrk nginx-light python3 procps curl zlib1g-dev
if [ -n "${PETMOCK:-}" ]; then
    petmock="$PETMOCK"  # another build to measure (to compare two builds), used as it is
else
    petmock="$(scripts/build-petmock.sh)"  # as `make serve` builds it
fi

# BENCH_ONLY=proxy: only the proxy figure (petmock proxy stub vs nginx proxy_pass to a local
# nginx), BENCH_REPEAT times (default 3) in alternation; with PETMOCK_BASELINE=path/to/petmock,
# that binary's proxy stub is measured in the same runs too, so the ratio of two builds comes from
# one run on a shared machine.
if [ "$only" = proxy ]; then
    exec Benchmarks/lib/petmock-proxy.sh "$petmock" "$duration"
fi
if [ "$only" = proxy-concurrent ]; then
    exec Benchmarks/lib/petmock-proxy-concurrent.sh "$petmock" "${1:-8s}" "${2:-3}"
fi
if [ "$only" = webhook ]; then
    exec Benchmarks/lib/petmock-webhook.sh "$petmock" "${1:-5s}" "${2:-3}"
fi
if [ "$only" = webhook-instructions ]; then
    exec Benchmarks/lib/petmock-webhook-instructions.sh "$petmock" "${1:-2000}"
fi
if [ "$only" = ab ]; then
    exec Benchmarks/lib/petmock-ab.sh "$petmock" "${1:-5s}" "${2:-5}"
fi
if [ "$only" = proxy-instructions ]; then
    exec Benchmarks/lib/petmock-proxy-instructions.sh "$petmock" "${1:-2000}"
fi

# shellcheck source=lib/servers.sh
source Benchmarks/lib/servers.sh

# Response templating: starts the server of the templated/plain pair (see below).
start_template_server() {
    # Response templating (lib/servers.sh): the templated and the plain stub, on one server.
    port_template="$(free_port)"
    write_template_root "$work/template"
    start_template="$(first_response "$port_template" "/api/plain/42" "$petmock" serve --stubs "$work/template" --port "$port_template")"
    pids+=("${start_template%% *}")
    templated_body="$(curl -fsS "http://127.0.0.1:$port_template/api/templated/42$template_query")"
    plain_body="$(curl -fsS "http://127.0.0.1:$port_template/api/plain/42$template_query")"
    [ "$templated_body" = "$plain_body" ] || { echo "templated body '$templated_body' differs from '$plain_body'" >&2; exit 1; }
}

run() { wrk -t2 -c64 -d"$duration" "http://127.0.0.1:$1${2:-/api/pets}"; }
rps() { echo "$1" | awk '/^Requests\/sec:/ { print $2 }'; }
mean() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (a + b) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

if [ "$only" = templating ]; then
    start_template_server
    rounds="${2:-3}"
    echo "templated stub vs plain, wrk -t2 -c64 -d$duration, $rounds rounds (plain, templated, templated, plain)"
    echo "machine: $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
    for round in $(seq "$rounds"); do
        a="$(rps "$(run "$port_template" "/api/plain/42$template_query")")"
        b="$(rps "$(run "$port_template" "/api/templated/42$template_query")")"
        c="$(rps "$(run "$port_template" "/api/templated/42$template_query")")"
        d="$(rps "$(run "$port_template" "/api/plain/42$template_query")")"
        templated="$(mean "$b" "$c")"; plain="$(mean "$a" "$d")"
        printf 'round %d: templated %s req/s, plain %s req/s, ratio %s (target >= 0.85)\n' \
            "$round" "$templated" "$plain" "$(ratio "$templated" "$plain")"
    done
    echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
    exit 0
fi

# Stub roots: the repository's Stubs/, one mapping (the pet list), and 1,000 mappings in
# which the pet list comes last in priority.
mkdir -p "$work/one/mappings" "$work/many/mappings"
python3 Benchmarks/lib/many-mappings.py "$work/one/mappings" "$work/many/mappings" Stubs/mappings/pets.json
count="$("$petmock" validate --stubs "$work/many" | tail -1)"

port_stubs="$(free_port)"; port_one="$(free_port)"; port_many="$(free_port)"; port_nginx="$(free_port)"
start_stubs="$(first_response "$port_stubs" /api/pets "$petmock" serve --stubs Stubs --port "$port_stubs")"
pids+=("${start_stubs%% *}")
start_one="$(first_response "$port_one" /api/pets "$petmock" serve --stubs "$work/one" --port "$port_one")"
pids+=("${start_one%% *}")
start_many="$(first_response "$port_many" /api/pets "$petmock" serve --stubs "$work/many" --port "$port_many")"
pids+=("${start_many%% *}")

# nginx serves byte for byte the body petmock serves.
mkdir -p "$work/www/api" "$work/logs"
curl -fsS "http://127.0.0.1:$port_stubs/api/pets" > "$work/www/api/pets"
static_nginx_conf "$port_nginx" > "$work/nginx.conf"
start_nginx="$(first_response "$port_nginx" /api/pets nginx -p "$work" -c "$work/nginx.conf")"
pids+=("${start_nginx%% *}")

# Proxying to the same upstream (that nginx): a petmock proxy stub vs nginx's proxy_pass.
port_proxy="$(free_port)"; port_nginx_proxy="$(free_port)"
mkdir -p "$work/proxy/mappings" "$work/proxy-nginx/logs"
cat > "$work/proxy/mappings/proxy.json" <<JSON
{"request": {"method": "GET", "urlPathPattern": "/api/.*"}, "response": {"proxyBaseUrl": "http://127.0.0.1:$port_nginx"}}
JSON
start_proxy="$(first_response "$port_proxy" /api/pets "$petmock" serve --stubs "$work/proxy" --port "$port_proxy")"
pids+=("${start_proxy%% *}")
proxy_nginx_conf "$port_nginx_proxy" "$port_nginx" > "$work/proxy-nginx/nginx.conf"
start_nginx_proxy="$(first_response "$port_nginx_proxy" /api/pets nginx -p "$work/proxy-nginx" -c "$work/proxy-nginx/nginx.conf")"
pids+=("${start_nginx_proxy%% *}")

start_template_server

load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
# The three nginx comparisons run ROUNDS times (BENCH_ROUNDS, 3 by default), each pair back to
# back, and each ratio is the median of its rounds: the machine is shared, and a change in its
# load weighs on both sides of a pair alike.
rounds="${BENCH_ROUNDS:-3}"
latency() { wrk -t1 -c1 -d"$duration" --latency "http://127.0.0.1:$1/api/pets"; }
# The 99th percentile of a `wrk --latency` output, in microseconds.
p99() {
    echo "$1" | awk '$1 == "99%" {
        v = $2; unit = v; sub(/[0-9.]+/, "", unit); sub(/[a-z]+$/, "", v)
        f = (unit == "us") ? 1 : (unit == "ms") ? 1000 : (unit == "s") ? 1000000 : 0
        printf "%.0f", v * f }'
}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
stubs_rps=(); nginx_rps=(); proxy_rps=(); nginx_proxy_rps=(); c1_p99=(); nginx_c1_p99=()
stubs_ratio=(); proxy_ratio=(); c1_ratio=(); problems=""
one_rps=(); many_rps=(); plain_rps=(); templated_rps=(); many_ratio=(); templated_ratio=()
for round in $(seq "$rounds"); do
    out_nginx="$(run "$port_nginx")"; out_stubs="$(run "$port_stubs")"
    out_nginx_proxy="$(run "$port_nginx_proxy")"; out_proxy="$(run "$port_proxy")"
    out_nginx_c1="$(latency "$port_nginx")"; out_c1="$(latency "$port_stubs")"
    nginx_rps+=("$(rps "$out_nginx")"); stubs_rps+=("$(rps "$out_stubs")")
    nginx_proxy_rps+=("$(rps "$out_nginx_proxy")"); proxy_rps+=("$(rps "$out_proxy")")
    nginx_c1_p99+=("$(p99 "$out_nginx_c1")"); c1_p99+=("$(p99 "$out_c1")")
    stubs_ratio+=("$(ratio "${stubs_rps[-1]}" "${nginx_rps[-1]}")")
    proxy_ratio+=("$(ratio "${proxy_rps[-1]}" "${nginx_proxy_rps[-1]}")")
    c1_ratio+=("$(ratio "${c1_p99[-1]}" "${nginx_c1_p99[-1]}")")
    # The two petmock pairs, in turn first and second from round to round.
    if ((round % 2)); then
        out_one="$(run "$port_one")"; out_many="$(run "$port_many")"
        out_plain="$(run "$port_template" "/api/plain/42$template_query")"
        out_templated="$(run "$port_template" "/api/templated/42$template_query")"
    else
        out_many="$(run "$port_many")"; out_one="$(run "$port_one")"
        out_templated="$(run "$port_template" "/api/templated/42$template_query")"
        out_plain="$(run "$port_template" "/api/plain/42$template_query")"
    fi
    one_rps+=("$(rps "$out_one")"); many_rps+=("$(rps "$out_many")")
    plain_rps+=("$(rps "$out_plain")"); templated_rps+=("$(rps "$out_templated")")
    many_ratio+=("$(ratio "${many_rps[-1]}" "${one_rps[-1]}")")
    templated_ratio+=("$(ratio "${templated_rps[-1]}" "${plain_rps[-1]}")")
    for name in out_nginx out_stubs out_nginx_proxy out_proxy out_nginx_c1 out_c1 out_one out_many out_plain out_templated; do
        found="$(echo "${!name}" | awk '/Non-2xx|Socket errors/ { print }' | tr '\n' ' ')"
        [ -n "$found" ] && problems+="round $round $name: $found"$'\n'
    done
done
rps_plain="$(median "${plain_rps[@]}")"; rps_templated="$(median "${templated_rps[@]}")"
rps_one="$(median "${one_rps[@]}")"; rps_many="$(median "${many_rps[@]}")"

rss_mb() { awk '/^VmHWM:/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }
# "yes" when VALUE OP TARGET holds.
meets() { awk -v v="$1" -v t="$3" -v op="$2" 'BEGIN { ok = (op == ">=") ? v >= t : v <= t; print (v == "n/a" ? "n/a" : ok ? "yes" : "NO") }'; }
rss_stubs="$(rss_mb "${start_stubs%% *}")"
# nginx's: the peaks of its master and workers (its session), summed.
rss_nginx="$(for p in $(pgrep -s "${start_nginx%% *}"); do awk '/^VmHWM:/ { print $2 }' "/proc/$p/status"; done |
    awk '{ t += $1 } END { printf "%.1f", t / 1024 }')"

m="$(median "${many_ratio[@]}")"; t="$(median "${templated_ratio[@]}")"
cost="$(awk -v r="$m" 'BEGIN { printf "%.1f", (1 - r) * 100 }')"
template_cost="$(awk -v r="$t" 'BEGIN { printf "%.1f", (1 - r) * 100 }')"
row() { printf '%-40s %12s %12s %7s %9s %4s\n' "$@"; }
report="$(
    echo "petmock vs nginx $(nginx -v 2>&1 | sed 's/.*nginx\///') ($(nproc) workers), loopback, GET /api/pets ($(wc -c < "$work/www/api/pets")-byte JSON), wrk -t2 -c64 -d$duration"
    echo "machine: $(nproc) cores, $(uname -r), $(date -u +%Y-%m-%dT%H:%MZ)"
    echo "every pair: $rounds rounds, back to back; the ratio is the median of the rounds' ratios"
    echo
    row "figure" "petmock" "reference" "ratio" "target" "met"
    s="$(median "${stubs_ratio[@]}")"; p="$(median "${proxy_ratio[@]}")"; l="$(median "${c1_ratio[@]}")"
    row "req/s, Stubs/ vs nginx, -c64" "$(median "${stubs_rps[@]}")" "$(median "${nginx_rps[@]}")" "$s" ">= 0.90" "$(meets "$s" ">=" 0.9)"
    row "req/s, proxy stub vs nginx proxy_pass" "$(median "${proxy_rps[@]}")" "$(median "${nginx_proxy_rps[@]}")" "$p" ">= 0.80" "$(meets "$p" ">=" 0.8)"
    row "p99 µs, Stubs/ vs nginx, -c1" "$(median "${c1_p99[@]}")" "$(median "${nginx_c1_p99[@]}")" "$l" "<= 1.50" "$(meets "$l" "<=" 1.5)"
    row "peak RSS MB, Stubs/ vs nginx (all runs)" "$rss_stubs" "$rss_nginx" "$(ratio "$rss_stubs" "$rss_nginx")" "< 25" "$(meets "$rss_stubs" "<=" 24.99)"
    row "req/s, 1,000 mappings vs 1" "$rps_many" "$rps_one" "$m" ">= 0.90" "$(meets "$m" ">=" 0.9)"
    row "req/s, templated stub vs plain" "$rps_templated" "$rps_plain" "$t" ">= 0.85" "$(meets "$t" ">=" 0.85)"
    row "first response ms, 1,000 mappings" "${start_many##* }" "${start_one##* }" "" "< 100" "$(meets "${start_many##* }" "<=" 99.99)"
    echo
    echo "rounds (ratio Stubs/, proxy, c1 p99, 1,000 mappings, templated): ${stubs_ratio[*]} | ${proxy_ratio[*]} | ${c1_ratio[*]} | ${many_ratio[*]} | ${templated_ratio[*]}"
    echo "1,000 mappings cost ${cost}% of throughput; $count"
    echo "  (19 non-matching stubs on /api/pets checked first; 980 more under /api: exact, regex, template, body)"
    echo "response templating costs ${template_cost}% of plain throughput: the body echoes"
    echo "  request.path.[2], request.query.q and a jsonPath of a query parameter ($(printf %s "$plain_body" | wc -c) bytes)"
    echo "peak RSS with 1,000 mappings: $(rss_mb "${start_many%% *}") MB"
    echo "load average before the runs: $load_before; after: $(cut -d' ' -f1-3 /proc/loadavg)"
    printf '%s' "$problems"
    true
)"
echo "$report"
mkdir -p Benchmarks/results
echo "$report" > Benchmarks/results/petmock.txt
