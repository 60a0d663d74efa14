#!/usr/bin/env bash
# BENCH_ONLY=webhook (bench-petmock.sh): a stub with a webhook against the same stub without one,
# on one petmock, side by side in one run: rounds of (plain, webhook, webhook, plain), wrk
# -t2 -c64. The webhook POSTs a templated body to a local nginx that answers 204 (petmock's own
# client, on the event loop). Prints each round's ratio, the median beside its target (>= 0.90),
# and how many calls were answered, failed or refused (at most 64 in flight: beyond, refused).
# A receiver that answers other than 2xx (before the runs, or any call petmock kept) fails the
# bench: its figure would not be a webhook's. Writes Benchmarks/results/petmock-webhook.txt.
# Usage: Benchmarks/lib/petmock-webhook.sh PETMOCK [DURATION] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
petmock="$1"; duration="${2:-5s}"; rounds="${3:-3}"
# shellcheck source=servers.sh
source Benchmarks/lib/servers.sh

port="$(free_port)"; port_receiver="$(free_port)"
mkdir -p "$work/hooks/mappings" "$work/receiver/logs"
cat > "$work/receiver/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $work/receiver/nginx.pid;
error_log $work/receiver/logs/error.log crit;
events { worker_connections 1024; }
http {
    access_log off;
    keepalive_requests 1000000;
    server {
        listen 127.0.0.1:$port_receiver;
        location = /health { return 200 "ok"; }
        location / { return 204; }
    }
}
CONF
body='[{"id": 1, "name": "Rex", "vetId": 1}, {"id": 2, "name": "Bo", "vetId": 2}]'
cat > "$work/hooks/mappings/plain.json" <<JSON
{"request": {"method": "GET", "urlPath": "/api/plain"}, "response": {"status": 200,
  "headers": {"Content-Type": "application/json"}, "body": $(python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$body")}}
JSON
cat > "$work/hooks/mappings/hooked.json" <<JSON
{"request": {"method": "GET", "urlPath": "/api/hooked"}, "response": {"status": 200,
  "headers": {"Content-Type": "application/json"}, "body": $(python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$body")},
 "serveEventListeners": [{"name": "webhook", "parameters": {"method": "POST",
   "url": "http://127.0.0.1:$port_receiver/callback", "headers": {"Content-Type": "application/json"},
   "body": "{\"served\": \"{{originalRequest.url}}\"}"}}]}
JSON
pids+=("$(start "$port_receiver" /health nginx -p "$work/receiver" -c "$work/receiver/nginx.conf")")
pids+=("$(start "$port" /api/plain "$petmock" serve --stubs "$work/hooks" --port "$port")")
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
run() { wrk -t2 -c"$connections" -d"$duration" "http://127.0.0.1:$port$1" | awk '/^Requests\/sec:/ { print $2 }'; }
mean() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (a + b) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
# Written to a file in this shell (not in a command substitution), so a failing check stops the bench.
report="$work/webhook-report.txt"
{
    echo "webhook stub vs the same stub without it, wrk -t2 -c$connections -d$duration, $rounds rounds (plain, webhook, webhook, plain)"
    echo "machine: $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
    ratios=()
    for round in $(seq "$rounds"); do
        a="$(run /api/plain)"; b="$(run /api/hooked)"; c="$(run /api/hooked)"; d="$(run /api/plain)"
        hooked="$(mean "$b" "$c")"; plain="$(mean "$a" "$d")"
        ratios+=("$(ratio "$hooked" "$plain")")
        printf 'round %d: webhook %s req/s, plain %s req/s, ratio %s\n' "$round" "$hooked" "$plain" "${ratios[-1]}"
    done
    median="$(printf '%s\n' "${ratios[@]}" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')"
    # The totals, and the kept calls' statuses: one answered other than 2xx fails the bench.
    totals="$(curl -fsS "http://127.0.0.1:$port/__admin/petmock/webhooks" | python3 -c '
import json, sys
listing = json.load(sys.stdin)
totals = listing["totals"]
bad = [call["status"] for call in listing["webhooks"]
       if call["outcome"] == "answered" and not 200 <= call["status"] < 300]
if bad:
    sys.exit("the receiver answered %d of the %d kept calls with %s, not 2xx"
             % (len(bad), len(listing["webhooks"]), sorted(set(bad))))
print("%d answered, %d failed, %d refused" % (totals["answered"], totals["failed"], totals["refused"]))')"
    printf 'webhook stub / plain stub (median of %d rounds): %s (target >= 0.90)\n' "$rounds" "$median"
    echo "webhook calls: $totals"
    echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$report"
cat "$report"
mkdir -p Benchmarks/results
{
    echo "# BENCH_ONLY=webhook Benchmarks/bench-petmock.sh $duration $rounds, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores"
    cat "$report"
} > Benchmarks/results/petmock-webhook.txt
