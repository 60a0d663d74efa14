#!/usr/bin/env bash
# The composite action's step (action.yml): petcontract verify against a live API, once per
# report format, each report written to the output folder (the github format also to the log,
# as annotations). Exits with the worst code of the runs: 0 nothing breaking, 1 breaking drift,
# 2 could not verify, 64 a wrong input. Runs as well outside GitHub, which is how it is tested
# (Tests/e2e/action.sh).
# Environment (the action's inputs):
#   PETKIT_LIVE         the API's base URL (required)
#   PETKIT_CONTRACT     the OpenAPI contract (a file in the repository); empty: the tool's own
#   PETKIT_FORMATS      comma-separated: text, json, junit, github, sarif, html (default github)
#   PETKIT_OUTPUT_DIR   where the reports go (default petcontract-reports)
#   PETKIT_ARGS         more verify arguments, split on spaces (--strict, --param id=1, ...)
#   PETKIT_PETCONTRACT  the petcontract (or an app's own ContractCLI tool) to run
set -uo pipefail

live=${PETKIT_LIVE:-}
contract=${PETKIT_CONTRACT:-}
formats=${PETKIT_FORMATS:-github}
out=${PETKIT_OUTPUT_DIR:-petcontract-reports}
tool=${PETKIT_PETCONTRACT:-petcontract}
read -r -a extra <<<"${PETKIT_ARGS:-}"

fail() { echo "petcontract action: $1" >&2; exit 64; }
[ -n "$live" ] || fail "the 'live' input is empty: give the API's base URL (https://api.example.com/v1)"
case "$live" in http://* | https://*) ;; *) fail "the 'live' input '$live' is not an http:// or https:// URL" ;; esac
[ -z "$contract" ] || [ -f "$contract" ] || fail "the 'contract' input '$contract' is not a file in the checkout"
command -v "$tool" >/dev/null 2>&1 || [ -x "$tool" ] || fail "no petcontract to run at '$tool'"

contract_args=()
[ -n "$contract" ] && contract_args=(--contract "$contract")
mkdir -p "$out"
worst=0
ran=0
IFS=',' read -r -a list <<<"$formats"
for format in "${list[@]}"; do
    format=$(echo "$format" | tr -d '[:space:]')
    [ -n "$format" ] || continue
    case "$format" in
    text) file="$out/petcontract.txt" ;;
    json) file="$out/petcontract.json" ;;
    junit) file="$out/petcontract-junit.xml" ;;
    sarif) file="$out/petcontract.sarif" ;;
    html) file="$out/petcontract.html" ;;
    github) file="" ;;
    *) fail "unknown format '$format' in the 'formats' input (text, json, junit, github, sarif, html)" ;;
    esac
    echo "== petcontract verify --live $live --format $format" >&2
    if [ -n "$file" ]; then
        "$tool" verify --live "$live" "${contract_args[@]}" "${extra[@]}" --format "$format" --output "$file"
    else
        "$tool" verify --live "$live" "${contract_args[@]}" "${extra[@]}" --format github
    fi
    status=$?
    ran=$((ran + 1))
    [ -n "$file" ] && echo "   report: $file (exit $status)" >&2
    [ "$status" -gt "$worst" ] && worst=$status
done
[ "$ran" -gt 0 ] || fail "the 'formats' input names no format"
if [ -n "${GITHUB_OUTPUT:-}" ]; then
    echo "exit-code=$worst" >>"$GITHUB_OUTPUT"
    echo "report-dir=$out" >>"$GITHUB_OUTPUT"
fi
exit "$worst"
