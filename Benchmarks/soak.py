#!/usr/bin/env python3
"""Soak petmock for a bounded time: wrk load over every operation with rotating file and
generated variants (faults included), admin API traffic (mappings created, read and deleted;
journal and scenario reads; the server-wide variant switched) and hot-reload edits of a
temporary copy of Stubs/, all at once. A probe checks throughout that the base stubs still
answer correctly. Reports requests served, errors, RSS and descriptors at start and end.

Usage: soak.py --petmock BIN --stubs Stubs --seconds N [--results FILE]
Exit status: 0 when the probe and admin traffic saw no error and descriptors came back.
"""

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

LUA = r"""
local paths = {"/api/pets", "/api/pets/1", "/api/vets", "/api/vets/2"}
local variants = {"", "missing-last-name", "vet-id-string", "vet-id-renamed", "vet-title-null", "pets-wrapped",
  "truncated-json", "empty-body", "maintenance-503", "server-error-500", "proxy-html-502", "connection-reset",
  "missing:lastName", "null:vetId", "type:vetId", "rename:vetId=practitionerId", "truncated", "empty",
  "html-error", "slow:20", "reset", "no-such-variant"}
local counter = 0
local statuses = {}

function request()
  counter = counter + 1
  local path = paths[counter % #paths + 1]
  local variant = variants[math.floor(counter / #paths) % #variants + 1]
  local headers = {}
  if variant ~= "" then headers["X-Petmock-Variant"] = variant end
  return wrk.format("GET", path, headers)
end

function done(summary, latency, requests)
  io.write(string.format('SOAK {"requests": %d, "connect": %d, "read": %d, "write": %d, "status": %d, ' ..
    '"timeout": %d, "p50_us": %d, "p99_us": %d, "max_us": %d}\n',
    summary.requests, summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.status,
    summary.errors.timeout, latency:percentile(50), latency:percentile(99), latency.max))
end
"""


class Petmock:
    def __init__(self, binary, stubs):
        self.process = subprocess.Popen(
            [binary, "serve", "--stubs", stubs, "--port", "0", "--watch"], stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
        # Readiness is petmock's log line naming its URL, on standard error; lines before it
        # (warnings) count as events, as later ones do.
        self.events = 0
        lines = []
        match = None
        while match is None:
            line = self.process.stderr.readline()
            if not line:
                break
            lines.append(line)
            match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if not match:
            self.process.kill()
            raise RuntimeError(f"petmock did not start: {''.join(lines)!r} {self.process.stdout.read()}")
        self.events = len(lines) - 1
        self.port = int(match.group(1))
        self.pid = self.process.pid
        threading.Thread(target=self._drain, args=(self.process.stdout, False), daemon=True).start()
        threading.Thread(target=self._drain, args=(self.process.stderr, True), daemon=True).start()

    def _drain(self, stream, count):
        for _ in stream:
            if count:
                self.events += 1  # reload events and warnings, one line each

    def fds(self):
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def rss_kb(self):
        with open(f"/proc/{self.pid}/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))

    def stop(self):
        self.process.terminate()
        try:
            return self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()


CALLS = [0]  # requests made by http(), probe and admin traffic together
CALLS_LOCK = threading.Lock()


def http(port, method, path, body=None, headers=None, timeout=10):
    """One request on a fresh connection; returns (status, body bytes)."""
    with CALLS_LOCK:
        CALLS[0] += 1
    payload = json.dumps(body).encode() if body is not None else b""
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close", f"Content-Length: {len(payload)}"]
    for name, value in (headers or {}).items():
        lines.append(f"{name}: {value}")
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + payload)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    return status, rest


class Worker(threading.Thread):
    """Runs `step` every `interval` seconds until stopped; counts calls and failures."""

    def __init__(self, name, interval, step):
        super().__init__(daemon=True)
        self.name, self.interval, self.step = name, interval, step
        self.calls, self.failures, self.samples = 0, 0, []
        self.running = True

    def run(self):
        number = 0
        while self.running:
            number += 1
            try:
                problem = self.step(number)
            except Exception as error:  # a refused connection, a timeout: all failures here
                problem = f"{type(error).__name__}: {error}"
            self.calls += 1
            if problem:
                self.failures += 1
                if len(self.samples) < 5:
                    self.samples.append(problem)
            time.sleep(self.interval)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--petmock", required=True)
    parser.add_argument("--stubs", default="Stubs")
    parser.add_argument("--seconds", type=int, default=180)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--results")
    options = parser.parse_args()

    work = tempfile.mkdtemp(prefix="petkit-soak-")
    stubs = os.path.join(work, "Stubs")
    shutil.copytree(options.stubs, stubs)
    lua = os.path.join(work, "soak.lua")
    with open(lua, "w") as script:
        script.write(LUA)
    server = Petmock(os.path.abspath(options.petmock), stubs)
    port = server.port
    expected_pets = json.loads(http(port, "GET", "/api/pets")[1])
    for _ in range(200):
        http(port, "GET", "/api/pets")
    start_fds, start_rss = server.fds(), server.rss_kb()

    def probe(number):
        status, body = http(port, "GET", "/api/pets" if number % 2 else "/api/vets/1")
        if status != 200:
            return f"probe: status {status}"
        value = json.loads(body)
        if number % 2 and value != expected_pets:
            return "probe: the pet list changed"
        return None

    def admin(number):
        created_status, created = http(port, "POST", "/__admin/mappings", {
            "request": {"method": "GET", "url": f"/soak/{number}"},
            "response": {"status": 200, "jsonBody": {"n": number}}})
        if created_status != 201:
            return f"create: {created_status}"
        mapping_id = json.loads(created)["id"]
        status, body = http(port, "GET", f"/soak/{number}")
        if status != 200 or json.loads(body) != {"n": number}:
            return f"created stub answered {status}"
        checks = [
            http(port, "GET", f"/__admin/mappings/{mapping_id}")[0] == 200,
            http(port, "DELETE", f"/__admin/mappings/{mapping_id}")[0] == 200,
            http(port, "GET", f"/soak/{number}")[0] == 404,
            http(port, "GET", "/__admin/requests?limit=20")[0] == 200,
            http(port, "POST", "/__admin/requests/count", {"method": "GET", "urlPath": "/api/pets"})[0] == 200,
            http(port, "GET", "/__admin/requests/unmatched")[0] == 200,
            http(port, "GET", "/__admin/scenarios")[0] == 200,
        ]
        if number % 10 == 0:
            # Server-wide for a moment: a variant that changes timing, not content, so the probe holds.
            checks.append(http(port, "PUT", "/__admin/petmock/variant", {"variant": "slow:1"})[0] == 200)
            checks.append(http(port, "DELETE", "/__admin/petmock/variant")[0] == 200)
        if not all(checks):
            return f"admin checks {checks}"
        return None

    def reload_edits(number):
        # A file that comes, changes and goes, and an edit of a real file that keeps its meaning.
        path = os.path.join(stubs, "mappings", "soak-edit.json")
        mapping = {"request": {"method": "GET", "url": "/soak-file"},
                   "response": {"status": 200, "body": f"version {number}"}}
        if number % 3 == 0 and os.path.exists(path):
            os.remove(path)
        else:
            with open(path + ".tmp", "w") as file:
                json.dump(mapping, file)
            os.replace(path + ".tmp", path)
        vets = os.path.join(stubs, "mappings", "vets.json")
        with open(vets) as file:
            text = file.read()
        with open(vets + ".tmp", "w") as file:
            file.write(text.rstrip() + ("\n" if number % 2 else "\n\n"))
        os.replace(vets + ".tmp", vets)
        return None

    workers = [Worker("probe", 0.02, probe), Worker("admin", 0.05, admin), Worker("hot reload", 0.5, reload_edits)]
    for worker in workers:
        worker.start()
    wrk = subprocess.run(
        ["wrk", "-t", "2", "-c", str(options.connections), "-d", f"{options.seconds}s", "--timeout", "5s", "-s", lua,
         f"http://127.0.0.1:{port}"], capture_output=True, text=True, timeout=options.seconds + 120)
    peak_rss = server.rss_kb()
    for worker in workers:
        worker.running = False
    for worker in workers:
        worker.join(30)
    line = next((l for l in wrk.stdout.splitlines() if l.startswith("SOAK ")), None)
    load = json.loads(line[5:]) if line else {}
    # Back to idle: every connection closed, no request in flight.
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and server.fds() > start_fds:
        time.sleep(0.1)
    end_fds, end_rss = server.fds(), server.rss_kb()
    alive = server.process.poll() is None
    status = server.stop()
    shutil.rmtree(work, ignore_errors=True)

    served = load.get("requests", 0) + CALLS[0]
    lines = [
        f"# make soak: petmock --watch under wrk ({options.connections} connections, 2 threads) for {options.seconds} s,",
        "# every operation x 22 rotating variants (file, generated, faults: resets, malformed, slow, 5xx),",
        "# admin traffic every 50 ms, hot-reload edits every 500 ms, a probe every 20 ms",
        f"# {time.strftime('%Y-%m-%dT%H:%MZ', time.gmtime())} on {os.cpu_count()} cores",
        f"wrk requests: {load.get('requests', 0)} ({load.get('requests', 0) / options.seconds:.0f}/s), "
        f"p50 {load.get('p50_us', 0) / 1000:.2f} ms, p99 {load.get('p99_us', 0) / 1000:.2f} ms",
        f"wrk socket errors: connect {load.get('connect', 0)}, read {load.get('read', 0)}, "
        f"write {load.get('write', 0)}, timeout {load.get('timeout', 0)} (resets and malformed chunks are "
        f"variants asked for); non-2xx {load.get('status', 0)} (5xx, 404 variants asked for)",
    ]
    for worker in workers:
        lines.append(f"{worker.name}: {worker.calls} rounds, {worker.failures} failures {worker.samples}")
    lines += [
        f"requests served in all: {served} (wrk {load.get('requests', 0)}, probe and admin {CALLS[0]})",
        f"reload events logged: {server.events}",
        f"RSS: {start_rss / 1024:.1f} MB at start, {peak_rss / 1024:.1f} MB at the end of load, "
        f"{end_rss / 1024:.1f} MB idle after",
        f"open fds: {start_fds} at start, {end_fds} at end",
        f"server: {'alive until stopped' if alive else 'DIED'}, exit status {status}",
    ]
    print("\n".join(lines))
    if options.results:
        with open(options.results, "w") as results:
            results.write("\n".join(lines) + "\n")
    ok = alive and end_fds <= start_fds and all(w.failures == 0 for w in workers) and load.get("requests", 0) > 0
    if not ok:
        print("soak: FAILED", file=sys.stderr)
        if wrk.returncode:
            print(wrk.stdout, wrk.stderr, file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
