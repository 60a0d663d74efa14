#!/usr/bin/env bash
# The webhook figure counted in instructions, which a shared machine does not move: the
# user-space instructions (valgrind's cachegrind) petmock executes per request of the stub with
# a webhook and of the same stub without it (lib/servers.sh's fixture), on one kept-alive
# connection, each call answered by the local nginx receiver before the next request (so none
# is refused). Each runs twice, with W requests and with W + N; the difference over N is the
# figure. With PETMOCK_BASELINE=path, an earlier build is counted the same way. Kernel time
# (the reads and sends) and the receiver's work are not counted; the wrk run of
# petmock-webhook.sh measures both.
# Usage: Benchmarks/lib/petmock-webhook-instructions.sh PETMOCK [N] (bench-petmock.sh calls it
# for BENCH_ONLY=webhook-instructions). Prints the figures and writes them to
# Benchmarks/results/petmock-webhook-instructions.txt.
set -euo pipefail
cd "$(dirname "$0")/../.."
petmock="$1"
count="${2:-2000}"
warm=500  # more than the webhook log keeps (300): the runs measure its steady state
baseline="${PETMOCK_BASELINE:-}"
scripts/install-deps.sh valgrind binutils nginx-light

# shellcheck source=servers.sh
source Benchmarks/lib/servers.sh

port_receiver="$(free_port)"
write_webhook_fixture "$port_receiver"
pids+=("$(start "$port_receiver" /health nginx -p "$work/receiver" -c "$work/receiver/nginx.conf")")

# "WEBHOOK PLAIN" instructions per request of BINARY.
counts() {
    local hooked plain
    hooked="$(per_request /api/hooked "$1" serve --stubs "$work/hooks" --port '{PORT}')"
    plain="$(per_request /api/plain "$1" serve --stubs "$work/hooks" --port '{PORT}')"
    echo "$hooked $plain"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

report="$work/webhook-instructions.txt"
{
    echo "# BENCH_ONLY=webhook-instructions Benchmarks/bench-petmock.sh $count, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores"
    echo "petmock's instructions per request (user space, cachegrind), one kept-alive connection, $count requests after $warm"
    read -r hooked plain <<< "$(counts "$(stripped "$petmock" petmock)")"
    printf 'stub with a webhook %s, the same stub without %s: the webhook adds %s (plain over webhook %s; no target of its own: the target is the wrk ratio, >= 0.90)\n' \
        "$hooked" "$plain" $((hooked - plain)) "$(ratio "$plain" "$hooked")"
    if [ -n "$baseline" ]; then
        read -r base_hooked base_plain <<< "$(counts "$(stripped "$baseline" baseline)")"
        printf 'baseline %s: stub with a webhook %s, without %s: the webhook adds %s; this build over it %s (webhook), %s (plain)\n' \
            "$baseline" "$base_hooked" "$base_plain" $((base_hooked - base_plain)) "$(ratio "$hooked" "$base_hooked")" \
            "$(ratio "$plain" "$base_plain")"
    fi
} > "$report"
cat "$report"
mkdir -p Benchmarks/results
cp "$report" Benchmarks/results/petmock-webhook-instructions.txt
