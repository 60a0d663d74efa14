# Sourced by e2e scripts that run petmock: start_petmock LOG ARG... runs `$binary serve ARG...
# --port 0` in the background (its pid added to the caller's `pids`, its output to LOG) and sets
# `started_url` once it serves ("petmock: serving ... on URL"); the caller's `fail` reports a
# petmock that does not start within ten seconds.
start_petmock() {
    local log="$1"
    shift
    : >"$log"
    "$binary" serve "$@" --port 0 >"$log" 2>&1 &
    pids+=("$!")
    for _ in $(seq 100); do
        started_url="$(sed -n 's/^petmock: serving .* on \(http:[^ ]*\)$/\1/p' "$log")"
        [ -z "$started_url" ] || return 0
        sleep 0.1
    done
    fail "petmock did not start: $(cat "$log")"
}
