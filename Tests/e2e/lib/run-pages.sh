#!/usr/bin/env bash
# Runs the shell blocks of each Markdown PAGE as written, top to bottom, one shell per page,
# from the repository root, and compares the outputs the page shows with what the commands
# print (Tests/e2e/lib/markdown_blocks.py says how blocks are marked). Every block must exit 0
# (a page writes `|| echo "exit $?"` where a command is meant to fail) and every server a page
# starts must be stopped by the page itself.
# The servers a page starts run on free ports, not on the ports the page shows: each documented
# port below is moved to a free one in the commands (markdown_blocks.py, PAGES_PORTS), so a page
# passes while anything else listens on 8080.
# Usage: run-pages.sh PAGE...   (PAGES_TOOLS_ON_PATH=1 puts .build/debug on PATH first;
# PAGES_KEEP=DIR keeps what each page's blocks printed; PAGES_EXACT_OUTPUTS=1 compares output
# blocks exactly rather than in order)
set -euo pipefail
cd "$(dirname "$0")/../../.."
here=Tests/e2e/lib

documented_ports=(8080 8081 8082 8083 8090)
# One free port for each documented one, all different, below the kernel's ephemeral range: a
# port from that range could be taken, before its server binds it, as the source port of an
# outgoing connection (even the page's own curl, connecting to itself).
read -r -a ports < <(python3 -c '
import random, socket, sys
low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
chosen = []
for port in random.sample(range(10000, low), 200):
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            continue
    chosen.append(port)
    if len(chosen) == int(sys.argv[1]):
        break
print(" ".join(map(str, chosen)))
' "${#documented_ports[@]}")
[ "${#ports[@]}" -eq "${#documented_ports[@]}" ] || { echo "pages: found no free ports to run on" >&2; exit 1; }
PAGES_PORTS=""
for i in "${!documented_ports[@]}"; do PAGES_PORTS+="${documented_ports[$i]}=${ports[$i]} "; done
export PAGES_PORTS
made=(Recorded Crawled Drifted vet-id-string.openapi.json petapi.sqlite petapi.sqlite-wal petapi.sqlite-shm report.html)
for path in "${made[@]}"; do
    [ ! -e "$path" ] || { echo "pages: $path exists; the examples would write it (move it away)" >&2; exit 1; }
done
work="$(mktemp -d)"
cleanup() {
    local status=$?
    rm -rf "${made[@]}" "$work"
    exit "$status"
}
trap cleanup EXIT

if [ "${PAGES_TOOLS_ON_PATH:-}" = 1 ]; then
    export PATH="$PWD/.build/debug:$PATH"
    for tool in petmock petcontract petapi petvet; do
        command -v "$tool" >/dev/null || { echo "pages: $tool is not built; run swift build first" >&2; exit 1; }
    done
fi

for page in "$@"; do
    dir="$work/$(echo "$page" | tr / _)"
    mkdir -p "$dir"
    python3 "$here/markdown_blocks.py" plan "$page" "$dir/blocks.sh" "$dir"
    set +e
    timeout --kill-after=10 900 bash "$dir/blocks.sh" >"$dir/trace.txt" 2>&1
    status=$?
    set -e
    if [ "$status" -ne 0 ]; then
        tail -30 "$dir/trace.txt" >&2
        failed="$(cat "$dir/current" 2>/dev/null || echo '?')"
        echo "--- the page's output, up to the block at $failed:" >&2
        tail -40 "$dir/page.txt" >&2 2>/dev/null || true
        echo "pages: $page: the block at $failed exited $status" >&2
        exit 1
    fi
    for port in "${ports[@]}"; do
        if curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$port/"; then
            echo "pages: $page: something still answers on port $port (its blocks' free port) after its blocks" >&2
            exit 1
        fi
    done
    # PAGES_KEEP=DIR keeps each page's outputs there, to read what the blocks printed.
    [ -z "${PAGES_KEEP:-}" ] || cp -r "$dir" "$PAGES_KEEP/"
    python3 "$here/markdown_blocks.py" check "$page" "$dir"
    rm -rf "${made[@]}"
done
echo "pages: every block of $* ran as written and printed what the page shows" >&2
