#!/usr/bin/env bash
# petmock serve --openapi --stateful, each figure beside its reference from the same run and its
# target; release build, median of three. Writes Benchmarks/results/stateful.txt.
#   (1) A stateful POST then a GET of the created item (wrk, 127.0.0.1, one pair per two
#       requests) against the same bytes served by two plain stubs (a POST and a GET) on the
#       same server; the store is reset between rounds; target >= 0.7x. With PETMOCK_BASELINE,
#       that build is measured the same way in the same rounds (its own server, after ours).
#   (2) Peak RSS (VmHWM) with 100,000 stored resources of about 200 bytes, against the same
#       server before it stored any; target < 100 MB.
#   (3) User-space instructions (valgrind's cachegrind, deterministic) per POST-then-GET pair,
#       stateful and plain, on one kept-alive connection: two runs, with W pairs and W + N,
#       the difference over N; with PETMOCK_BASELINE=PATH, that build's too.
# Usage: Benchmarks/bench-stateful.sh [DURATION]   (wrk's duration per round, default 3s)
#   PETMOCK=PATH measures that binary instead of building one; BENCH_ONLY=instructions runs (3)
#   alone, BENCH_ONLY=throughput (1) alone (neither writes the results file); PAIRS=N (default
#   2000) pairs counted after WARM=W (default 500); ROUNDS=N (default 3) rounds of (1).
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-3s}"
results=Benchmarks/results/stateful.txt
scripts/install-deps.sh wrk python3 procps curl zlib1g-dev
if [ -n "${PETMOCK:-}" ]; then
    petmock="$PETMOCK"
else
    petmock="$(scripts/build-petmock.sh)"  # as `make serve` builds it
fi

# shellcheck source=lib/servers.sh
source Benchmarks/lib/servers.sh
# BENCH_ONLY=throughput writes no results file.
[ "${BENCH_ONLY:-}" = throughput ] && results="$work/stateful.txt"

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
rps() { awk '/^Requests\/sec:/ { print $2 }'; }
peak_mb() { awk '/^VmHWM:/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }
stop() { kill -- "-$1" 2>/dev/null || kill "$1" 2>/dev/null || true; }

# A collection with no examples (the store starts empty); every field is given by the client,
# so the answer is the stored resource as it is.
cat >"$work/notes.json" <<'JSON'
{"openapi": "3.1.0", "info": {"title": "bench", "version": "1"},
 "paths": {
  "/notes": {"post": {"requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/NewNote"}}}},
    "responses": {"201": {"description": "stored", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Note"}}}}}}},
  "/notes/{id}": {"get": {"parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
    "responses": {"200": {"description": "a note", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Note"}}}}}}}},
 "components": {"schemas": {
  "NewNote": {"type": "object", "required": ["title", "text"],
   "properties": {"title": {"type": "string"}, "text": {"type": "string"}}},
  "Note": {"type": "object", "required": ["id", "title", "text"],
  "properties": {"id": {"type": "integer"}, "title": {"type": "string"}, "text": {"type": "string"}}}}}}
JSON
# About 200 bytes stored per note.
text="$(printf 'x%.0s' $(seq 1 160))"
body="{\"title\":\"a note\",\"text\":\"$text\"}"
cat >"$work/pair.lua" <<LUA
-- A POST, then a GET of the item it created (its Location), and again.
local location = nil
request = function()
    if location == nil then
        return wrk.format("POST", wrk.path, {["Content-Type"] = "application/json"}, '$body')
    end
    local target = location
    location = nil
    return wrk.format("GET", target)
end
response = function(status, headers, body)
    if status == 201 then
        location = headers["Location"] or headers["location"]
    elseif status ~= 200 then
        error("status " .. status)
    end
end
LUA

# The plain stubs answering the created resource's bytes: a POST and a GET.
add_plain_stubs() {
    python3 - "$1" "http://127.0.0.1:$2/__admin/mappings" <<'PY'
import json, sys, urllib.request
body = open(sys.argv[1]).read()
for method, url, status, headers in [
        ("POST", "/plain", 201, {"Content-Type": "application/json", "Location": "/plain/1"}),
        ("GET", "/plain/1", 200, {"Content-Type": "application/json"})]:
    mapping = {"request": {"method": method, "url": url},
               "response": {"status": status, "headers": headers, "body": body}}
    request = urllib.request.Request(sys.argv[2], data=json.dumps(mapping).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request).read()
PY
}

# POST-then-GET pairs on one kept-alive connection: PORT PATH COUNT.
pairs_on_one_connection() {
    python3 - "$1" "$2" "$3" "$body" <<'PY'
import http.client, sys
port, path, count, body = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4].encode()
connection = http.client.HTTPConnection("127.0.0.1", port)
for _ in range(count):
    connection.request("POST", path, body=body, headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    response.read()
    location = response.getheader("Location")
    if response.status != 201 or not location:
        sys.exit(f"POST {path} answered {response.status}")
    connection.request("GET", location)
    response = connection.getresponse()
    response.read()
    if response.status != 200:
        sys.exit(f"GET {location} answered {response.status}")
PY
}

# Instructions of one run of BINARY under cachegrind: PATH (/notes or /plain) EXTRA BINARY.
pair_run() {
    local path="$1" extra="$2" binary="$3" port out="$work/cachegrind.$RANDOM" server
    port="$(free_port)"
    server="$(SWIFT_DETERMINISTIC_HASHING=1 start "$port" /__admin/health valgrind --tool=cachegrind --cache-sim=no \
        --cachegrind-out-file="$out" "$binary" serve --openapi "$work/notes.json" --stateful --port "$port")"
    pids+=("$server")
    if [ "$path" = /plain ]; then add_plain_stubs "$work/created.json" "$port"; fi
    pairs_on_one_connection "$port" "$path" $((warm + extra))
    kill -TERM -- "-$server" 2>/dev/null || kill -TERM "$server"
    while kill -0 "$server" 2>/dev/null; do sleep 0.1; done
    awk '/^summary:/ { print $2 }' "$out"
}
pair_instructions() {
    local a b
    a="$(pair_run "$1" 0 "$2")"
    b="$(pair_run "$1" "$count" "$2")"
    echo $(((b - a) / count))
}

instructions() {
    scripts/install-deps.sh valgrind binutils
    count="${PAIRS:-2000}" warm="${WARM:-500}"
    # The created resource's bytes, for the plain stubs.
    local port pid
    port="$(free_port)"
    pid="$(start "$port" /__admin/health "$petmock" serve --openapi "$work/notes.json" --stateful --port "$port")"
    pids+=("$pid")
    curl -fsS -o "$work/created.json" -H 'Content-Type: application/json' -d "$body" "http://127.0.0.1:$port/notes"
    stop "$pid"
    echo "user-space instructions per POST-then-GET pair (cachegrind), one kept-alive connection," \
        "$count pairs after $warm"
    local ours stateful plain
    ours="$(stripped "$petmock" petmock)"
    stateful="$(pair_instructions /notes "$ours")"
    plain="$(pair_instructions /plain "$ours")"
    printf 'stateful %s, plain stubs %s: plain over stateful %s\n' "$stateful" "$plain" "$(ratio "$plain" "$stateful")"
    if [ -n "${PETMOCK_BASELINE:-}" ]; then
        local base base_plain
        base="$(stripped "$PETMOCK_BASELINE" baseline)"
        base_plain="$(pair_instructions /plain "$base")"
        base="$(pair_instructions /notes "$base")"
        printf 'baseline %s: stateful %s, plain stubs %s: plain over stateful %s; this build over it %s\n' \
            "$PETMOCK_BASELINE" "$base" "$base_plain" "$(ratio "$base_plain" "$base")" \
            "$(ratio "$stateful" "$base")"
    fi
}
if [ "${BENCH_ONLY:-}" = instructions ]; then
    instructions
    exit 0
fi

{
    trap stop_servers EXIT  # a subshell (piped to tee): lib/servers.sh
    echo "# petmock serve --openapi --stateful: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores," \
        "load average $(cut -d' ' -f1-3 /proc/loadavg); release build; median of ${ROUNDS:-3}"

    # (1) POST then GET, stateful against plain stubs of the same bytes, on one server (and on
    # the baseline's, when given, in the same rounds).
    # Starts BINARY on a new port, checks its answers, adds the plain stubs; prints "PORT PID".
    serve_pair() {
        local port pid
        port="$(free_port)"
        pid="$(start "$port" /__admin/health "$1" serve --openapi "$work/notes.json" --stateful --port "$port")"
        curl -fsS -o "$work/created.json" -H 'Content-Type: application/json' -d "$body" "http://127.0.0.1:$port/notes"
        curl -fsS -o "$work/read.json" "http://127.0.0.1:$port/notes/1"
        cmp -s "$work/created.json" "$work/read.json" || { echo "the GET differs from the POST's answer" >&2; exit 1; }
        add_plain_stubs "$work/created.json" "$port"
        curl -fsS -o "$work/plain.json" -X POST -H 'Content-Type: application/json' -d "$body" "http://127.0.0.1:$port/plain"
        cmp -s "$work/created.json" "$work/plain.json" || { echo "plain stub body differs" >&2; exit 1; }
        echo "$port $pid"
    }
    # Assigned first, so that a failed check stops the bench.
    served="$(serve_pair "$petmock")"
    read -r port pid <<< "$served"
    pids+=("$pid")
    servers=("$port")
    if [ -n "${PETMOCK_BASELINE:-}" ]; then
        served="$(serve_pair "$PETMOCK_BASELINE")"
        read -r base_port base_pid <<< "$served"
        pids+=("$base_pid")
        servers+=("$base_port")
    fi
    stateful=() plain=() ratios=() base_stateful=() base_plain=() base_ratios=()
    pairs() {
        wrk -t2 -c64 -d"$duration" -s "$work/pair.lua" "http://127.0.0.1:$1$2" >"$work/wrk.txt" 2>&1
        if grep -q 'Non-2xx' "$work/wrk.txt"; then echo "$2: $(grep 'Non-2xx' "$work/wrk.txt")" >&2; exit 1; fi
        # The Lua script stops on an answer other than the one it expects; a 507 means the round
        # created more than the store's 100,000 resources.
        if grep -q 'PANIC' "$work/wrk.txt"; then
            echo "$2: $(grep -m1 'PANIC' "$work/wrk.txt")" >&2
            grep -q 'status 507' "$work/wrk.txt" \
                && echo "the store filled within one round: give a shorter DURATION than $duration" >&2
            exit 1
        fi
        rps <"$work/wrk.txt"
    }
    reset() { curl -fsS -o /dev/null -X DELETE "http://127.0.0.1:$1/__admin/petmock/state"; }
    for round in $(seq "${ROUNDS:-3}"); do
        for server in "${servers[@]}"; do
            reset "$server"
            # In turn first and second from round to round.
            if ((round % 2)); then
                s="$(pairs "$server" /notes)"; p="$(pairs "$server" /plain)"
            else
                p="$(pairs "$server" /plain)"; s="$(pairs "$server" /notes)"
            fi
            if [ "$server" = "$port" ]; then
                stateful+=("$s") plain+=("$p") ratios+=("$(ratio "$s" "$p")")
            else
                base_stateful+=("$s") base_plain+=("$p") base_ratios+=("$(ratio "$s" "$p")")
            fi
        done
    done
    stop "$pid"
    printf 'stateful POST then GET (%s bytes): %s req/s (the same bytes from two plain stubs: %s req/s); ratio %s (target >= 0.7)\n' \
        "$(wc -c <"$work/created.json")" "$(median "${stateful[@]}")" "$(median "${plain[@]}")" \
        "$(median "${ratios[@]}")"
    if [ -n "${PETMOCK_BASELINE:-}" ]; then
        stop "$base_pid"
        printf 'baseline %s, same rounds: %s req/s (plain stubs: %s req/s); ratio %s\n' "$PETMOCK_BASELINE" \
            "$(median "${base_stateful[@]}")" "$(median "${base_plain[@]}")" "$(median "${base_ratios[@]}")"
    fi

    # BENCH_ONLY=throughput: (1) alone.
    [ "${BENCH_ONLY:-}" = throughput ] && exit 0

    # (2) Peak RSS with 100,000 stored resources.
    held=() empty=()
    for _ in 1 2 3; do
        port="$(free_port)"
        pid="$(start "$port" /__admin/health "$petmock" serve --openapi "$work/notes.json" --stateful --port "$port")"
        pids+=("$pid")
        empty+=("$(peak_mb "$pid")")
        python3 - "$port" "$body" <<'PY'
import http.client, sys
port, body = int(sys.argv[1]), sys.argv[2].encode()
connection = http.client.HTTPConnection("127.0.0.1", port)
for number in range(100_000):
    connection.request("POST", "/notes", body=body, headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    response.read()
    if response.status != 201:
        sys.exit(f"POST {number} answered {response.status}")
PY
        stored="$(curl -fsS "http://127.0.0.1:$port/__admin/petmock/state" | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s["items"], s["bytes"])')"
        [ "${stored%% *}" = 100000 ] || { echo "stored ${stored%% *}, not 100000" >&2; exit 1; }
        held+=("$(peak_mb "$pid")")
        stop "$pid"
    done
    printf 'peak RSS with 100,000 stored resources (%s bytes of JSON in all): %s MB (the same server storing none: %s MB; target < 100 MB)\n' \
        "${stored##* }" "$(median "${held[@]}")" "$(median "${empty[@]}")"

    # (3) Instructions per pair.
    instructions
} | tee "$results"
