#!/usr/bin/env bash
# The composite action's step (scripts/action-verify.sh, which action.yml runs) against a local
# petmock serving Stubs/ on a free port, with the debug petcontract: every report format is
# written and the healthy stubs pass (exit 0); a drift variant fails the step (exit 1) with the
# drift in the reports; a base URL that is not the API's is "could not verify" (exit 2); wrong
# inputs are refused (exit 64) before anything runs. The release archive it downloads on
# GitHub is built and checked by scripts/release.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."

fail() {
    echo "action: FAIL: $*" >&2
    exit 1
}

swift build --product petmock >&2
swift build --product petcontract >&2
bin="$(swift build --show-bin-path)"
binary="$bin/petmock"

work="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
. Tests/e2e/lib/petmock.sh
start_petmock "$work/petmock.log" --stubs Stubs
url="$started_url"

# Runs the step with the inputs given as NAME=VALUE; sets $status and $output.
step() {
    status=0
    output="$(env PETKIT_PETCONTRACT="$bin/petcontract" PETKIT_OUTPUT_DIR="$work/reports" \
        GITHUB_OUTPUT="$work/github-output" "$@" scripts/action-verify.sh 2>&1)" || status=$?
}

rm -rf "$work/reports" && : >"$work/github-output"
step PETKIT_LIVE="$url/api" PETKIT_FORMATS="github, junit,json,html,sarif,text"
[ "$status" -eq 0 ] || fail "healthy stubs: exit $status: $output"
for file in petcontract-junit.xml petcontract.json petcontract.html petcontract.sarif petcontract.txt; do
    [ -s "$work/reports/$file" ] || fail "no report $file: $output"
done
grep -q '"breaking" : 0\|"breaking": 0' "$work/reports/petcontract.json" || fail "json report: $(cat "$work/reports/petcontract.json")"
grep -q '^exit-code=0$' "$work/github-output" || fail "the step's outputs: $(cat "$work/github-output")"

curl -fsS -X PUT -d '{"variant":"vet-id-renamed"}' "$url/__admin/petmock/variant" >/dev/null
rm -rf "$work/reports" && : >"$work/github-output"
step PETKIT_LIVE="$url/api" PETKIT_FORMATS="github,junit" PETKIT_ARGS="--max-per-operation 2"
[ "$status" -eq 1 ] || fail "drifted stubs: exit $status, not 1: $output"
echo "$output" | grep -q '^::error ' || fail "no github annotation for the drift: $output"
grep -q '<failure' "$work/reports/petcontract-junit.xml" || fail "the junit report has no failure"
grep -q '^exit-code=1$' "$work/github-output" || fail "the step's outputs: $(cat "$work/github-output")"
curl -fsS -X PUT -d '{"variant":null}' "$url/__admin/petmock/variant" >/dev/null

step PETKIT_LIVE="$url/nothing/here" PETKIT_FORMATS="text"
[ "$status" -eq 2 ] || fail "a base URL that is not the API's: exit $status, not 2: $output"

for inputs in "PETKIT_LIVE=" "PETKIT_LIVE=ftp://x" "PETKIT_LIVE=$url/api PETKIT_FORMATS=xml" \
    "PETKIT_LIVE=$url/api PETKIT_FORMATS=," "PETKIT_LIVE=$url/api PETKIT_CONTRACT=$work/missing.json"; do
    read -r -a assignments <<<"$inputs"
    step "${assignments[@]}"
    [ "$status" -eq 64 ] || fail "inputs '$inputs': exit $status, not 64: $output"
    echo "$output" | grep -q "^petcontract action: " || fail "inputs '$inputs': no message: $output"
done
echo "action: the step passes healthy stubs, fails drift (1), cannot verify a wrong base URL (2) and refuses wrong inputs (64)" >&2
