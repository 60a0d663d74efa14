#!/usr/bin/env bash
# BENCH_ONLY=webhook (bench-petmock.sh): a stub with a webhook against the same stub without one,
# on one petmock, side by side in one run: rounds of (plain, webhook, webhook, plain), wrk
# -t2 -c64. The webhook POSTs a templated body to a local nginx that answers 204 (petmock's own
# client, on the event loop). Prints each round's ratio, the median beside its target (>= 0.90),
# how many calls were answered, failed or refused (at most 64 in flight: beyond, refused), and
# the CPU time per request of petmock, the receiver and wrk in each case, whose totals bound the
# ratio the two cores allow. With PETMOCK_BASELINE=PATH, that build serves the same stubs on its
# own port and is measured the same way in the same rounds, after this one.
# A receiver that answers other than 2xx (before the runs, or any call petmock kept) fails the
# bench: its figure would not be a webhook's. Writes Benchmarks/results/petmock-webhook.txt.
# Usage: Benchmarks/lib/petmock-webhook.sh PETMOCK [DURATION] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
petmock="$1"; duration="${2:-5s}"; rounds="${3:-3}"
# shellcheck source=servers.sh
source Benchmarks/lib/servers.sh

port="$(free_port)"; port_receiver="$(free_port)"
write_webhook_fixture "$port_receiver"
pid_receiver="$(start "$port_receiver" /health nginx -p "$work/receiver" -c "$work/receiver/nginx.conf")"
pids+=("$pid_receiver")
pid_petmock="$(start "$port" /api/plain "$petmock" serve --stubs "$work/hooks" --port "$port")"
pids+=("$pid_petmock")
# With PETMOCK_BASELINE, an earlier build serves the same stubs, measured in the same rounds.
servers=("ours $port $pid_petmock")
if [ -n "${PETMOCK_BASELINE:-}" ]; then
    port_baseline="$(free_port)"
    pid_baseline="$(start "$port_baseline" /api/plain "$PETMOCK_BASELINE" serve --stubs "$work/hooks" --port "$port_baseline")"
    pids+=("$pid_baseline")
    servers+=("baseline $port_baseline $pid_baseline")
fi
hooked_body="$(curl -fsS "http://127.0.0.1:$port/api/hooked")" || { echo "the webhook stub did not answer" >&2; exit 1; }
plain_body="$(curl -fsS "http://127.0.0.1:$port/api/plain")" || { echo "the plain stub did not answer" >&2; exit 1; }
[ -n "$plain_body" ] && [ "$hooked_body" = "$plain_body" ] \
    || { echo "the two stubs answer differently: '$hooked_body' and '$plain_body'" >&2; exit 1; }
receiver_status="$(curl -sS -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
    -d '{"served": "/api/hooked"}' "http://127.0.0.1:$port_receiver/callback")"
case "$receiver_status" in
    2??) ;;
    *) echo "the receiver answers the webhook's call with $receiver_status, not 2xx" >&2; exit 1 ;;
esac

connections=64
hz="$(getconf CLK_TCK)"
# One wrk run of PORT PID PATH MODE, its CPU time and petmock's and the receiver's (user + system, every
# thread) added to MODE's totals: $work/cpu-MODE holds "requests petmock receiver wrk" in
# seconds. Prints the run's req/s.
# PORT and PID are the petmock's.
run() {
    local port="$1" pid="$2" before_petmock before_receiver
    shift 2
    before_petmock="$(ticks "$pid")"; before_receiver="$(ticks "$pid_receiver")"
    /usr/bin/time -f '%U %S' -o "$work/wrk-time.txt" \
        wrk -t2 -c"$connections" -d"$duration" "http://127.0.0.1:$port$1" > "$work/wrk.txt"
    awk -v p=$(($(ticks "$pid") - before_petmock)) -v r=$(($(ticks "$pid_receiver") - before_receiver)) \
        -v hz="$hz" -v n="$(awk '/requests in/ { print $1 }' "$work/wrk.txt")" \
        -v w="$(awk '{ print $1 + $2 }' "$work/wrk-time.txt")" -v file="$work/cpu-$2" 'BEGIN {
        total[1] = n; total[2] = p / hz; total[3] = r / hz; total[4] = w
        if ((getline line < file) > 0) { split(line, old, " "); for (i = 1; i <= 4; i++) total[i] += old[i] }
        close(file)
        printf "%d %.2f %.2f %.2f\n", total[1], total[2], total[3], total[4] > file }'
    awk '/^Requests\/sec:/ { print $2 }' "$work/wrk.txt"
}
# MODE's CPU per request, in µs: "petmock receiver wrk total".
cpu_per_request() {
    awk '{ printf "%.1f %.1f %.1f %.1f", $2 / $1 * 1e6, $3 / $1 * 1e6, $4 / $1 * 1e6, ($2 + $3 + $4) / $1 * 1e6 }' \
        "$work/cpu-$1"
}
mean() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (a + b) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
# The webhook log's totals of the petmock on PORT, and its kept calls' statuses: one answered
# other than 2xx fails the bench.
webhook_totals() {
    curl -fsS "http://127.0.0.1:$1/__admin/petmock/webhooks" | python3 -c '
import json, sys
listing = json.load(sys.stdin)
totals = listing["totals"]
bad = [call["status"] for call in listing["webhooks"]
       if call["outcome"] == "answered" and not 200 <= call["status"] < 300]
if bad:
    sys.exit("the receiver answered %d of the %d kept calls with %s, not 2xx"
             % (len(bad), len(listing["webhooks"]), sorted(set(bad))))
print("%d answered, %d failed, %d refused" % (totals["answered"], totals["failed"], totals["refused"]))'
}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# Written to a file in this shell (not in a command substitution), so a failing check stops the bench.
report="$work/webhook-report.txt"
{
    echo "webhook stub vs the same stub without it, wrk -t2 -c$connections -d$duration, $rounds rounds (plain, webhook, webhook, plain)${PETMOCK_BASELINE:+; each round on this build, then on the baseline $PETMOCK_BASELINE}"
    echo "machine: $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
    for round in $(seq "$rounds"); do
        for server in "${servers[@]}"; do
            read -r label port_server pid_server <<< "$server"
            a="$(run "$port_server" "$pid_server" /api/plain "$label-plain")"
            b="$(run "$port_server" "$pid_server" /api/hooked "$label-webhook")"
            c="$(run "$port_server" "$pid_server" /api/hooked "$label-webhook")"
            d="$(run "$port_server" "$pid_server" /api/plain "$label-plain")"
            hooked="$(mean "$b" "$c")"; plain="$(mean "$a" "$d")"
            echo "$(ratio "$hooked" "$plain")" >> "$work/ratios-$label"
            printf 'round %d, %s: webhook %s req/s, plain %s req/s, ratio %s\n' "$round" "$label" "$hooked" "$plain" \
                "$(ratio "$hooked" "$plain")"
        done
    done
    for server in "${servers[@]}"; do
        read -r label port_server pid_server <<< "$server"
        # shellcheck disable=SC2046
        printf '%s: webhook stub / plain stub (median of %d rounds): %s (target >= 0.90)\n' "$label" "$rounds" \
            "$(median $(cat "$work/ratios-$label"))"
        totals="$(webhook_totals "$port_server")"
        echo "$label: webhook calls: $totals"
        # Where the CPU goes: every process on the two cores, per request served. With the cores
        # busy, req/s is at most cores / (the three together), so their ratio bounds the figure.
        read -r plain_petmock plain_receiver plain_wrk plain_total <<< "$(cpu_per_request "$label-plain")"
        read -r hook_petmock hook_receiver hook_wrk hook_total <<< "$(cpu_per_request "$label-webhook")"
        printf '%s: CPU per request (user + system, all rounds), plain: petmock %s µs, receiver %s µs, wrk %s µs; total %s µs\n' \
            "$label" "$plain_petmock" "$plain_receiver" "$plain_wrk" "$plain_total"
        printf '%s: CPU per request, webhook: petmock %s µs, receiver %s µs, wrk %s µs; total %s µs; %s calls answered per request\n' \
            "$label" "$hook_petmock" "$hook_receiver" "$hook_wrk" "$hook_total" \
            "$(awk -v a="${totals%% *}" -v file="$work/cpu-$label-webhook" \
                'BEGIN { getline line < file; split(line, t, " "); printf "%.2f", a / t[1] }')"
        printf '%s: CPU-bound ceiling of the ratio (plain total over webhook total): %s\n' "$label" \
            "$(ratio "$plain_total" "$hook_total")"
    done
    echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$report"
cat "$report"
mkdir -p Benchmarks/results
{
    echo "# BENCH_ONLY=webhook Benchmarks/bench-petmock.sh $duration $rounds, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores"
    cat "$report"
} > Benchmarks/results/petmock-webhook.txt
