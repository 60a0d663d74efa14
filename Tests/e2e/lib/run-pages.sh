#!/usr/bin/env bash
# Runs the shell blocks of each Markdown PAGE as written, top to bottom, one shell per page,
# from the repository root, and compares the outputs the page shows with what the commands
# print (Tests/e2e/lib/markdown_blocks.py says how blocks are marked). Every block must exit 0
# (a page writes `|| echo "exit $?"` where a command is meant to fail) and every server a page
# starts must be stopped by the page itself.
# Usage: run-pages.sh PAGE...   (PAGES_TOOLS_ON_PATH=1 puts .build/debug on PATH first;
# PAGES_KEEP=DIR keeps what each page's blocks printed)
set -euo pipefail
cd "$(dirname "$0")/../../.."
here=Tests/e2e/lib

ports=(8080 8081 8082 8083 8090)
made=(Recorded Crawled Drifted vet-id-string.openapi.json petapi.sqlite petapi.sqlite-wal petapi.sqlite-shm report.html)
for port in "${ports[@]}"; do
    if curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$port/"; then
        echo "pages: port $port is in use; the examples need it free" >&2
        exit 1
    fi
done
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
            echo "pages: $page: something still answers on port $port after its blocks" >&2
            exit 1
        fi
    done
    # PAGES_KEEP=DIR keeps each page's outputs there, to read what the blocks printed.
    [ -z "${PAGES_KEEP:-}" ] || cp -r "$dir" "$PAGES_KEEP/"
    python3 "$here/markdown_blocks.py" check "$page" "$dir"
    rm -rf "${made[@]}"
done
echo "pages: every block of $* ran as written and printed what the page shows" >&2
