#!/usr/bin/env bash
# Runs the README's shell blocks as written, top to bottom, in one shell, from the repository
# root: what a new user pastes must work. Blocks preceded by `<!-- readme.sh: skip: REASON -->`
# are left out (the reason is printed). Every block must exit 0 (the README writes
# `|| echo "exit $?"` where a command is meant to fail), every server a block starts must be
# stopped by the README itself, and a few outputs the README promises are checked.
set -euo pipefail
cd "$(dirname "$0")/../.."

ports=(8080 8081 8082 8083 8090)
for port in "${ports[@]}"; do
    if curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$port/"; then
        echo "readme: port $port is in use; the README's examples need it free" >&2
        exit 1
    fi
done
made=(Recorded Crawled petapi.sqlite petapi.sqlite-wal petapi.sqlite-shm)
for path in "${made[@]}"; do
    [ ! -e "$path" ] || { echo "readme: $path exists; the README's examples would write it (move it away)" >&2; exit 1; }
done
work="$(mktemp -d)"
cleanup() {
    local status=$?
    rm -rf "${made[@]}" "$work"
    exit "$status"
}
trap cleanup EXIT

python3 - "$work/readme-blocks.sh" <<'PY'
import re, sys
text = open("README.md").read()
# Whatever a failing block leaves running is stopped with the shell.
out = ["set -eo pipefail", "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT", "set -x"]
skip = None
count = 0
for line_number, block in [(m.start(), m) for m in re.finditer(r"(<!-- readme.sh: skip: (.*?) -->\n)?```sh\n(.*?)```", text, re.S)]:
    if block.group(1):
        print(f"readme: skipping a block: {block.group(2)}", file=sys.stderr)
        continue
    count += 1
    out.append(f"echo '=== README block {count}' >&2")
    out.append(block.group(3))
out.append("set +x")
# Nothing a block started may still run: the README stops what it starts.
out.append('if [ -n "$(jobs -p)" ]; then echo "readme: still running after the last block:" >&2; jobs >&2; kill $(jobs -p); exit 1; fi')
open(sys.argv[1], "w").write("\n".join(out) + "\n")
print(f"readme: running {count} blocks", file=sys.stderr)
PY

set +e
timeout --kill-after=10 900 bash "$work/readme-blocks.sh" >"$work/out.txt" 2>&1
status=$?
set -e
if [ "$status" -ne 0 ]; then
    tail -40 "$work/out.txt" >&2
    echo "readme: the README's blocks exited $status (full log above, last 40 lines)" >&2
    exit 1
fi
for port in "${ports[@]}"; do
    if curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$port/"; then
        echo "readme: something still answers on port $port after the README's blocks" >&2
        exit 1
    fi
done
expect() {
    grep -qF -- "$1" "$work/out.txt" || { echo "readme: the output lacks: $1" >&2; tail -40 "$work/out.txt" >&2; exit 1; }
}
expect "Rex Smith"                                         # the tour's table
expect "probably renamed"                                  # the tour's drift
expect "exit 1"
expect "recorded 4 mappings in 4 files into Recorded"      # the recording walkthrough
expect "2 operations checked against http://127.0.0.1:8081/api (contract built-in): 0 breaking"
expect '"code":422'                                        # petapi refuses a pet with no vet
expect "1 operation checked against http://127.0.0.1:8081 (contract Tests/ContractKitTests/Fixtures/petstore.yaml)"  # --include, --param
echo "readme: every block ran as written" >&2
