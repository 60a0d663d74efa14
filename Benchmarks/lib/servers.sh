# Shared by the petmock benchmarks (source it): a work folder removed at exit, servers started
# in their own sessions and ended with their workers, a free port, and a start that waits for
# the first 200.
work="$(mktemp -d)"
chmod 755 "$work"  # nginx workers run as another user and must read the body file
pids=()
# Each server runs in its own session (process group): end the group, workers included. A
# block piped to tee is a subshell, whose servers the script's trap never sees: such a block
# starts with `trap stop_servers EXIT`.
stop_servers() {
    for pid in "${pids[@]}"; do kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true; done
}
cleanup() {
    stop_servers
    rm -rf "$work"
}
trap cleanup EXIT

# CPU clock ticks (user + system) of every thread of every process in the session of PID (a
# server started by `start`, its workers included).
ticks() {
    for process in $(pgrep -s "$(ps -o sid= -p "$1" | tr -d ' ')"); do
        for thread in /proc/"$process"/task/*; do cut -d' ' -f14,15 "$thread/stat" 2>/dev/null; done
    done | awk '{ t += $1 + $2 } END { print t + 0 }'
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# Starts a command, waits (bounded, polling a socket) for its first 200 on PATH, and prints
# "PID MILLISECONDS" measured from spawn. The process keeps running; add its pid to `pids`.
first_response() {
    python3 - "$@" <<'PY'
import os, signal, socket, subprocess, sys, time
port, path, command = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
start = time.monotonic()
process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, start_new_session=True)
request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode()
while True:
    if time.monotonic() - start > 20 or process.poll() is not None:
        print(f"no response from {command[0]} within 20 s", file=sys.stderr)
        os.killpg(process.pid, signal.SIGKILL)
        sys.exit(1)
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as connection:
            connection.sendall(request)
            data = b""
            while chunk := connection.recv(65536):
                data += chunk
        if data.startswith(b"HTTP/1.1 200"):
            break
    except OSError:
        time.sleep(0.0002)
print(process.pid, f"{(time.monotonic() - start) * 1000:.1f}")
PY
}

# Starts a command as first_response does and prints its pid only.
start() {
    local started
    started="$(first_response "$@")"
    echo "${started%% *}"
}

# nginx's configuration for serving $work/www on 127.0.0.1:PORT (both benches' static server).
static_nginx_conf() {
    cat <<CONF
worker_processes $(nproc);
daemon off;
pid $work/nginx.pid;
error_log $work/logs/error.log crit;
events { worker_connections 1024; }
http {
    access_log off;
    keepalive_requests 1000000;
    open_file_cache max=16;
    server {
        listen 127.0.0.1:$1;
        root $work/www;
        location = /api/pets { default_type application/json; }
    }
}
CONF
}

# nginx's configuration for proxying 127.0.0.1:LISTEN to 127.0.0.1:UPSTREAM with kept-alive
# upstream connections (the reference for petmock's proxy stubs), in $work/proxy-nginx.
proxy_nginx_conf() {
    cat <<CONF
worker_processes $(nproc);
daemon off;
pid $work/proxy-nginx/nginx.pid;
error_log $work/proxy-nginx/logs/error.log crit;
events { worker_connections 1024; }
http {
    access_log off;
    keepalive_requests 1000000;
    upstream api { server 127.0.0.1:$2; keepalive 64; }
    server {
        listen 127.0.0.1:$1;
        location / { proxy_pass http://api; proxy_http_version 1.1; proxy_set_header Connection ""; }
    }
}
CONF
}

# The proxy benchmarks' upstream: nginx on $port_nginx serving, at /api/pets, the body PETMOCK
# serves for Stubs/; and $work/proxy, a stub root whose one mapping proxies /api/* to it.
start_proxy_upstream() {
    local port_stubs pid
    port_stubs="$(free_port)"
    pid="$(start "$port_stubs" /api/pets "$1" serve --stubs Stubs --port "$port_stubs")"
    mkdir -p "$work/www/api" "$work/logs" "$work/proxy/mappings" "$work/proxy-nginx/logs"
    curl -fsS "http://127.0.0.1:$port_stubs/api/pets" > "$work/www/api/pets"
    kill -- "-$pid" 2>/dev/null || true
    port_nginx="$(free_port)"
    static_nginx_conf "$port_nginx" > "$work/nginx.conf"
    pids+=("$(start "$port_nginx" /api/pets nginx -p "$work" -c "$work/nginx.conf")")
    cat > "$work/proxy/mappings/proxy.json" <<JSON
{"request": {"method": "GET", "urlPathPattern": "/api/.*"}, "response": {"proxyBaseUrl": "http://127.0.0.1:$port_nginx"}}
JSON
}

# Response templating's stub root, DIR: a stub whose body echoes two request values and a
# jsonPath of a query parameter, and a plain stub answering the very same bytes (ask both with
# $template_query).
template_query='?q=x&filter=%7B%22name%22%3A%22Rex%22%7D'
write_template_root() {
    mkdir -p "$1/mappings"
    cat > "$1/mappings/template.json" <<'JSON'
{"mappings": [
  {"request": {"method": "GET", "urlPathPattern": "/api/templated/[0-9]+"},
   "response": {"status": 200, "headers": {"Content-Type": "application/json"},
                "body": "{\"id\":\"{{request.path.[2]}}\",\"q\":\"{{request.query.q}}\",\"name\":\"{{jsonPath request.query.filter '$.name'}}\"}",
                "transformers": ["response-template"]}},
  {"request": {"method": "GET", "urlPathPattern": "/api/plain/[0-9]+"},
   "response": {"status": 200, "headers": {"Content-Type": "application/json"},
                "body": "{\"id\":\"42\",\"q\":\"x\",\"name\":\"Rex\"}"}}
]}
JSON
}

# Instructions counted (valgrind's cachegrind, user space) in one run of COMMAND... serving
# PATH: $warm requests, then EXTRA more, each on one kept-alive connection. valgrind 3.19
# cannot read the debug information lld writes, so petmock runs from a copy without it
# (`stripped`; its symbol table stays). Swift's hashing is made deterministic there, so that two
# runs probe their dictionaries alike.
count_run() {
    local extra="$1" port="$2" path="$3" out="$work/cachegrind.$RANDOM" glue="?"
    shift 3
    [[ "$path" == *\?* ]] && glue="&"
    local server
    server="$(SWIFT_DETERMINISTIC_HASHING=1 start "$port" "${path%%\?*}" valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$out" "$@")"
    curl -s -o /dev/null "http://127.0.0.1:$port$path${glue}warm=[1-$warm]"
    [ "$extra" -gt 0 ] && curl -s -o /dev/null "http://127.0.0.1:$port$path${glue}n=[1-$extra]"
    kill -TERM -- "-$server" 2>/dev/null || kill -TERM "$server"
    while kill -0 "$server" 2>/dev/null; do sleep 0.1; done
    awk '/^summary:/ { print $2 }' "$out"
}
# Instructions per request of COMMAND... serving PATH (its port is given as {PORT}): two runs,
# with $warm requests and with $warm + $count, the difference over $count.
per_request() {
    local path="$1" port a b
    shift
    port="$(free_port)"
    a="$(count_run 0 "$port" "$path" "${@//\{PORT\}/$port}")"
    port="$(free_port)"
    b="$(count_run "$count" "$port" "$path" "${@//\{PORT\}/$port}")"
    echo $(((b - a) / count))
}
stripped() { objcopy --strip-debug "$1" "$work/$2"; echo "$work/$2"; }

# The webhook benchmarks' fixture: $work/receiver, an nginx (one worker) answering 204 on
# 127.0.0.1:PORT, and $work/hooks, a stub root with /api/plain and /api/hooked, the same stub
# with a webhook POSTing a templated body to the receiver.
write_webhook_fixture() {
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
        listen 127.0.0.1:$1;
        location = /health { return 200 "ok"; }
        location / { return 204; }
    }
}
CONF
    local body='[{"id": 1, "name": "Rex", "vetId": 1}, {"id": 2, "name": "Bo", "vetId": 2}]'
    cat > "$work/hooks/mappings/plain.json" <<JSON
{"request": {"method": "GET", "urlPath": "/api/plain"}, "response": {"status": 200,
  "headers": {"Content-Type": "application/json"}, "body": $(python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$body")}}
JSON
    cat > "$work/hooks/mappings/hooked.json" <<JSON
{"request": {"method": "GET", "urlPath": "/api/hooked"}, "response": {"status": 200,
  "headers": {"Content-Type": "application/json"}, "body": $(python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$body")},
 "serveEventListeners": [{"name": "webhook", "parameters": {"method": "POST",
   "url": "http://127.0.0.1:$1/callback", "headers": {"Content-Type": "application/json"},
   "body": "{\"served\": \"{{originalRequest.url}}\"}"}}]}
JSON
}
