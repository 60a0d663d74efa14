#!/usr/bin/env bash
# petmock serving an OpenAPI document, each figure beside its reference from the same run and
# its target; release build, median of three. Writes Benchmarks/results/openapi-mock.txt.
#   (1) GitHub's REST description (Benchmarks/data, 623 operations): `petmock serve --openapi`
#       from spawn to its first response, and its peak RSS after it (VmHWM), against petmock
#       serving one stub; targets < 500 ms and < 80 MB. Beside it, in the same rounds, a Swagger
#       2.0 document of the same size: Kubernetes' API (Benchmarks/data, v1.25, 661 operations,
#       converted to 3.0 when read); target < 500 ms.
#   (2) A deterministic generated body against the same bytes served as a plain stub, by one
#       server (wrk, 127.0.0.1); target >= 0.8x.
#   (3) Request validation: `--validate-requests on` against `off` on a request with three
#       parameters (path, query, header) and a small JSON body; target cost < 15%. Skipped, and
#       said so, when this petmock does not know the option.
# Usage: Benchmarks/bench-openapi-mock.sh [DURATION]   (wrk's duration per round, default 5s)
#   PETMOCK=PATH measures that binary instead of building one.
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-5s}"
results=Benchmarks/results/openapi-mock.txt
scripts/install-deps.sh wrk python3 procps curl zlib1g-dev
if [ -n "${PETMOCK:-}" ]; then
    petmock="$PETMOCK"
else
    petmock="$(scripts/build-petmock.sh)"  # as `make serve` builds it
fi

# shellcheck source=lib/servers.sh
source Benchmarks/lib/servers.sh

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
rps() { awk '/^Requests\/sec:/ { print $2 }'; }
peak_mb() { awk '/^VmHWM:/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }
stop() { kill -- "-$1" 2>/dev/null || kill "$1" 2>/dev/null || true; }

gunzip -c Benchmarks/data/api.github.com.json.gz >"$work/api.github.com.json"
gunzip -c Benchmarks/data/kubernetes-v1.25.swagger.json.gz >"$work/kubernetes.swagger.json"
mkdir -p "$work/one/mappings"
cat >"$work/one/mappings/root.json" <<'JSON'
{"request": {"method": "GET", "url": "/"}, "response": {"status": 200, "body": "ok"}}
JSON

# A small document whose answers are generated (no examples), and one whose operation takes
# three parameters and a JSON body (for request validation).
cat >"$work/generated.json" <<'JSON'
{"openapi": "3.1.0", "info": {"title": "bench", "version": "1"},
 "paths": {
  "/items/{id}": {"get": {"parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
   "responses": {"200": {"description": "an item", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}}}}},
  "/orders/{id}": {"post": {
   "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer", "minimum": 1}},
                  {"name": "verbose", "in": "query", "schema": {"type": "boolean"}},
                  {"name": "X-Tenant", "in": "header", "required": true, "schema": {"type": "string", "pattern": "^t[0-9]+$"}}],
   "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["sku", "qty"],
     "properties": {"sku": {"type": "string", "minLength": 1}, "qty": {"type": "integer", "minimum": 1}}}}}},
   "responses": {"201": {"description": "created", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}}}}}},
 "components": {"schemas": {"Item": {"type": "object", "required": ["id", "name", "tags", "price"],
  "properties": {"id": {"type": "string", "format": "uuid"}, "name": {"type": "string", "pattern": "^[A-Z][a-z]{3,8}$"},
   "price": {"type": "number", "minimum": 0, "multipleOf": 0.01}, "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
   "kind": {"oneOf": [{"type": "string", "enum": ["tool", "food"]}, {"type": "integer"}]}}}}}}
JSON
cat >"$work/order.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"sku":"a-1","qty":2}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["X-Tenant"] = "t42"
LUA

{
    trap stop_servers EXIT  # a subshell (piped to tee): lib/servers.sh
    echo "# petmock serving an OpenAPI document: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores," \
        "load average $(cut -d' ' -f1-3 /proc/loadavg); release build; median of three"

    # (1) Start to first response and peak RSS, GitHub's description against one stub.
    starts=() rss=() reference_starts=() reference_rss=() swagger_starts=()
    for _ in 1 2 3; do
        port="$(free_port)"
        started="$(first_response "$port" / "$petmock" serve --stubs "$work/one" --port "$port")"
        pid="${started%% *}"
        pids+=("$pid")
        reference_starts+=("${started##* }")
        curl -fsS -o /dev/null "http://127.0.0.1:$port/"
        reference_rss+=("$(peak_mb "$pid")")
        stop "$pid"
        port="$(free_port)"
        started="$(first_response "$port" / "$petmock" serve --openapi "$work/api.github.com.json" --port "$port")"
        pid="${started%% *}"
        pids+=("$pid")
        starts+=("${started##* }")
        # A few generated answers too, so that the peak includes serving.
        for path in /repos/o/r /users/u /orgs/o/members /repos/o/r/pulls/1 /gists; do
            curl -sS -o /dev/null "http://127.0.0.1:$port$path"
        done
        rss+=("$(peak_mb "$pid")")
        stop "$pid"
        # The Swagger 2.0 document: its first operation, GET /api/ (mounted at /, no basePath);
        # every operation asks for a bearer token, which the first request does not send.
        port="$(free_port)"
        started="$(first_response "$port" /api/ "$petmock" serve --openapi "$work/kubernetes.swagger.json" \
            --port "$port" --security off)"
        pid="${started%% *}"
        pids+=("$pid")
        swagger_starts+=("${started##* }")
        stop "$pid"
    done
    printf 'GitHub REST description, start to first response: %s ms (petmock with one stub: %s ms; target < 500 ms)\n' \
        "$(median "${starts[@]}")" "$(median "${reference_starts[@]}")"
    printf 'Kubernetes v1.25 Swagger 2.0 description, start to first response: %s ms' "$(median "${swagger_starts[@]}")"
    printf ' (GitHub REST description, same rounds: %s ms; target < 500 ms)\n' "$(median "${starts[@]}")"
    printf 'GitHub REST description, peak RSS: %s MB (petmock with one stub: %s MB; target < 80 MB)\n' \
        "$(median "${rss[@]}")" "$(median "${reference_rss[@]}")"

    # (2) A generated body against the same bytes as a plain stub, on one server.
    port="$(free_port)"
    pid="$(start "$port" /items/1 "$petmock" serve --openapi "$work/generated.json" --port "$port")"
    pids+=("$pid")
    curl -fsS -o "$work/generated-body.json" "http://127.0.0.1:$port/items/1"
    curl -fsS -o "$work/generated-again.json" "http://127.0.0.1:$port/items/1"
    cmp -s "$work/generated-body.json" "$work/generated-again.json" || { echo "generated body not identical" >&2; exit 1; }
    python3 - "$work/generated-body.json" "http://127.0.0.1:$port/__admin/mappings" <<'PY'
import json, sys, urllib.request
body = open(sys.argv[1]).read()
mapping = {"request": {"method": "GET", "url": "/plain/1"},
           "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "body": body}}
request = urllib.request.Request(sys.argv[2], data=json.dumps(mapping).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
urllib.request.urlopen(request).read()
PY
    curl -fsS -o "$work/plain-body.json" "http://127.0.0.1:$port/plain/1"
    cmp -s "$work/generated-body.json" "$work/plain-body.json" || { echo "plain stub body differs" >&2; exit 1; }
    generated=() plain=() ratios=()
    answer() { wrk -t2 -c64 -d"$duration" "http://127.0.0.1:$port$1" | rps; }
    for round in 1 2 3; do
        # In turn first and second from round to round.
        if ((round % 2)); then
            g="$(answer /items/1)"; p="$(answer /plain/1)"
        else
            p="$(answer /plain/1)"; g="$(answer /items/1)"
        fi
        generated+=("$g") plain+=("$p") ratios+=("$(ratio "$g" "$p")")
    done
    stop "$pid"
    printf 'generated body (%s bytes): %s req/s (same bytes as a plain stub: %s req/s); ratio %s (target >= 0.8)\n' \
        "$(wc -c <"$work/generated-body.json")" "$(median "${generated[@]}")" "$(median "${plain[@]}")" \
        "$(median "${ratios[@]}")"

    # (3) Request validation on against off.
    if ! "$petmock" serve --help 2>&1 | grep -q -- "--validate-requests"; then
        echo "request validation: not measured: this petmock does not know --validate-requests"
    else
        port_on="$(free_port)" port_off="$(free_port)"
        pid_on="$(start "$port_on" /items/1 "$petmock" serve --openapi "$work/generated.json" --port "$port_on" \
            --validate-requests on)"
        pid_off="$(start "$port_off" /items/1 "$petmock" serve --openapi "$work/generated.json" --port "$port_off" \
            --validate-requests off)"
        pids+=("$pid_on" "$pid_off")
        target="/orders/42?verbose=true"
        for p in "$port_on" "$port_off"; do
            code="$(curl -sS -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
                -H 'X-Tenant: t42' -d '{"sku":"a-1","qty":2}' "http://127.0.0.1:$p$target")"
            [ "$code" = 201 ] || { echo "POST $target on port $p answered $code, not 201" >&2; exit 1; }
        done
        on=() off=() costs=()
        order() { wrk -t2 -c64 -d"$duration" -s "$work/order.lua" "http://127.0.0.1:$1$target" | rps; }
        for round in 1 2 3; do
            # In turn first and second from round to round.
            if ((round % 2)); then
                a="$(order "$port_off")"; b="$(order "$port_on")"
            else
                b="$(order "$port_on")"; a="$(order "$port_off")"
            fi
            off+=("$a") on+=("$b")
            costs+=("$(awk -v on="$b" -v off="$a" 'BEGIN { if (off > 0) printf "%.1f", (1 - on / off) * 100; else print "n/a" }')")
        done
        stop "$pid_on"
        stop "$pid_off"
        printf 'request validation on: %s req/s (off: %s req/s); cost %s%% (target < 15%%)\n' \
            "$(median "${on[@]}")" "$(median "${off[@]}")" "$(median "${costs[@]}")"
    fi
} | tee "$results"
