#!/usr/bin/env python3
"""Hostile clients against petapi and petmock on loopback, bounded in time.

Each scenario checks three things: the hostile client gets the right refusal (or is dropped),
a well-behaved client keeps being served meanwhile, and once the hostile clients are gone the
server's open descriptors and memory come back to their baseline (read from /proc/PID/fd and
/proc/PID/status). Figures go to stdout and, with --results, to a file.

Usage: hostile.py --bin DIR [--stubs Stubs] [--results FILE] [--only petapi|petmock]
Exit status: 0 when every check passed, 1 otherwise.
"""

import argparse
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

CONNECTION_LIMIT = 4096  # HTTPServerConfiguration.maxConnections default
HEADER_TIMEOUT = 10.0  # HTTPServerConfiguration.headerTimeout default
STALLED_REQUEST_AGE = 2.0  # HTTPServerConfiguration.stalledRequestAge default


class Server:
    """A server process on a free port; readiness is the first line naming its URL (petapi prints
    it on standard output, petmock's log line is on standard error: both are read)."""

    def __init__(self, name, command, cwd, open_file_limit=None):
        self.name = name
        shell = f"ulimit -n {open_file_limit} && " if open_file_limit else ""
        self.process = subprocess.Popen(
            ["/bin/sh", "-c", shell + 'exec "$0" "$@"'] + command, cwd=cwd, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
        lines = []
        match = None
        while match is None:
            line = self.process.stdout.readline()
            if not line:
                break
            lines.append(line)
            match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if not match:
            self.stop()
            raise RuntimeError(f"{name} did not report its URL: {''.join(lines)!r}")
        self.port = int(match.group(1))
        self.pid = self.process.pid
        # Keep reading its output so a full pipe never blocks it.
        threading.Thread(target=lambda: [None for _ in self.process.stdout], daemon=True).start()

    def fds(self):
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def rss_kb(self):
        with open(f"/proc/{self.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def cpu_seconds(self):
        with open(f"/proc/{self.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def alive(self):
        return self.process.poll() is None

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def connect(port, timeout=5.0, receive_buffer=None):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.settimeout(timeout)
    sock.connect(("127.0.0.1", port))
    return sock


def read_to_end(sock, limit=64 * 1024 * 1024):
    """Reads until EOF, a reset or the socket's timeout; returns (bytes, how it ended)."""
    data = b""
    try:
        while len(data) < limit:
            chunk = sock.recv(65536)
            if not chunk:
                return data, "closed"
            data += chunk
        return data, "limit"
    except socket.timeout:
        return data, "timeout"
    except ConnectionResetError:
        return data, "reset"


def responses(data):
    """Statuses of the complete responses in `data`, in order (Content-Length or chunked)."""
    statuses = []
    while data:
        end = data.find(b"\r\n\r\n")
        if end < 0 or not data.startswith(b"HTTP/1."):
            break
        head = data[:end].decode("latin-1").split("\r\n")
        status = int(head[0].split()[1])
        headers = {line.split(":", 1)[0].strip().lower(): line.split(":", 1)[1].strip() for line in head[1:] if ":" in line}
        rest = data[end + 4:]
        if status < 200 or status in (204, 304):
            length = 0
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            length, position = 0, 0
            body_end = None
            while True:
                line_end = rest.find(b"\r\n", position)
                if line_end < 0:
                    break
                size = int(rest[position:line_end].split(b";")[0], 16)
                position = line_end + 2 + size + 2
                if size == 0:
                    body_end = position
                    break
            if body_end is None:
                statuses.append(status)
                break
            length = body_end
        else:
            length = int(headers.get("content-length", "0"))
        statuses.append(status)
        data = rest[length:]
    return statuses


def exchange(port, raw, timeout=5.0):
    """Sends raw bytes, half-closes nothing, reads to the end; returns (statuses, ending, bytes)."""
    sock = connect(port, timeout)
    try:
        sock.sendall(raw)
        data, ending = read_to_end(sock)
    except (BrokenPipeError, ConnectionResetError):
        data, ending = b"", "reset"
    finally:
        sock.close()
    return responses(data), ending, data


class GoodClient(threading.Thread):
    """A well-behaved client: one request every 50 ms on a fresh connection, for the whole run."""

    def __init__(self, port, path):
        super().__init__(daemon=True)
        self.port, self.path = port, path
        self.results = []  # (time, ok, seconds)
        self.running = True

    def run(self):
        request = f"GET {self.path} HTTP/1.1\r\nHost: good\r\nConnection: close\r\n\r\n".encode()
        while self.running:
            start = time.monotonic()
            ok = False
            try:
                statuses, _, _ = exchange(self.port, request, timeout=5)
                ok = statuses == [200]
            except OSError:
                pass
            self.results.append((start, ok, time.monotonic() - start))
            time.sleep(0.05)

    def window(self, since):
        chosen = [r for r in self.results if r[0] >= since]
        failures = sum(1 for r in chosen if not r[1])
        slowest = max((r[2] for r in chosen), default=0.0)
        return len(chosen), failures, slowest


class Suite:
    def __init__(self, server, good_path):
        self.server = server
        self.good_path = good_path
        self.good = GoodClient(server.port, good_path)
        self.rows = []
        self.failures = []
        # Descriptors a scenario may leave that are kept on purpose (see run_proxy).
        self.fd_slack = 0

    def check(self, condition, message):
        if not condition:
            self.failures.append(f"{self.server.name}: {message}")
        return condition

    def settle(self, baseline_fds, timeout=10.0):
        """Waits (bounded) until the server holds no more descriptors than at the baseline."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.server.fds() <= baseline_fds + self.fd_slack:
                return True
            time.sleep(0.05)
        return False

    def scenario(self, name, body, good_must_pass=True):
        baseline_fds = self.server.fds()
        baseline_rss = self.server.rss_kb()
        cpu_before = self.server.cpu_seconds()
        since = time.monotonic()
        started = time.monotonic()
        detail = body()
        elapsed = time.monotonic() - started
        # At least one good request started after the scenario began and finished (bounded wait).
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not any(r[0] >= since for r in self.good.results):
            time.sleep(0.02)
        settled = self.settle(baseline_fds)
        after_fds = self.server.fds()
        after_rss = self.server.rss_kb()
        count, failures, slowest = self.good.window(since)
        self.check(self.server.alive(), f"{name}: the server died")
        self.check(settled, f"{name}: descriptors did not come back ({baseline_fds} before, {after_fds} after)")
        if good_must_pass:
            self.check(count > 0 and failures == 0, f"{name}: the good client failed {failures} of {count} requests")
        self.rows.append({
            "scenario": name, "seconds": round(elapsed, 1), "detail": detail,
            "fds": f"{baseline_fds}->{after_fds}", "rss_mb": f"{baseline_rss / 1024:.1f}->{after_rss / 1024:.1f}",
            "cpu_s": round(self.server.cpu_seconds() - cpu_before, 2),
            "good": f"{count - failures}/{count} ok, slowest {slowest * 1000:.0f} ms",
        })


# Scenarios. Each returns a short text of what happened; checks go through suite.check.

def slowloris(suite, connections=100):
    """Heads a byte a second: each must get 408 and a close once the header timeout passes."""
    port = suite.server.port
    socks = []
    for _ in range(connections):
        sock = connect(port, timeout=HEADER_TIMEOUT + 5)
        sock.sendall(b"GET /api/pets HTTP/1.1\r\n")
        socks.append(sock)
    start = time.monotonic()
    refused = set()
    deadline = start + HEADER_TIMEOUT + 5
    while time.monotonic() < deadline and len(refused) < connections:
        for index, sock in enumerate(socks):
            if index in refused:
                continue
            try:
                sock.sendall(b"X")
            except OSError:
                pass
        time.sleep(1.0)
        for index, sock in enumerate(socks):
            if index in refused:
                continue
            sock.setblocking(False)
            try:
                data = sock.recv(4096)
                if data.startswith(b"HTTP/1.1 408") or data == b"":
                    refused.add(index)
            except (BlockingIOError, InterruptedError):
                pass
            except OSError:
                refused.add(index)
            sock.setblocking(True)
    took = time.monotonic() - start
    for sock in socks:
        sock.close()
    suite.check(len(refused) == connections, f"slowloris: {connections - len(refused)} trickling heads not refused")
    suite.check(took < HEADER_TIMEOUT + 4, f"slowloris: refusals took {took:.1f} s")
    return f"{len(refused)}/{connections} got 408 after {took:.1f} s"


def connection_flood(suite, extra=300):
    """Idle connections up to and past the connection limit: each one past it takes the place
    of the longest-idle one (closed without a word, as nginx reuses idle connections), so the
    good client keeps being served; the held ones cost no CPU while idle."""
    port = suite.server.port
    socks = [connect(port, timeout=3) for _ in range(CONNECTION_LIMIT + extra)]
    cpu = suite.server.cpu_seconds()
    time.sleep(1.0)
    idle_cpu = suite.server.cpu_seconds() - cpu
    peak_fds = suite.server.fds()
    # Held: nothing to read yet. Closed to make room: end of file with no bytes. Refused: a 503.
    held, closed, refused, other = 0, 0, 0, 0
    last_closed = -1
    for index, sock in enumerate(socks):
        sock.setblocking(False)
        try:
            data = sock.recv(4096)
            if data == b"":
                closed += 1
                last_closed = index
            elif data.startswith(b"HTTP/1.1 503") or data == b"":
                refused += 1
            else:
                other += 1
        except BlockingIOError:
            held += 1
        except ConnectionResetError:
            # Refused with 503 and closed while its head was on the way: the close became a reset.
            refused += 1
        except OSError:
            other += 1
    # The newest connection was taken in: it is served.
    newest = socks[-1]
    newest.setblocking(True)
    newest.settimeout(5)
    served = False
    try:
        newest.sendall(f"GET {suite.good_path} HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n".encode())
        served = newest.recv(64).startswith(b"HTTP/1.1 200")
    except OSError:
        pass
    for sock in socks:
        sock.close()
    # The good client's own short connections take a slot now and then, so the split is not
    # exactly the limit.
    suite.check(other == 0 and refused == 0, f"flood: {refused} refused with 503, {other} neither held nor closed")
    suite.check(held <= CONNECTION_LIMIT, f"flood: {held} connections held, more than the limit")
    suite.check(closed >= extra, f"flood: only {closed} idle connections closed to make room for {extra}")
    # Each event loop closes its own longest idle, and the kernel spreads connections over the
    # loops unevenly: the closed ones are among the oldest, not exactly the first `extra`.
    suite.check(last_closed < 2 * extra,
                f"flood: connection number {last_closed} was closed; the longest idle should go first")
    suite.check(served, "flood: the newest connection was not served")
    suite.check(idle_cpu < 0.3, f"flood: {idle_cpu:.2f} s CPU in 1 s with {len(socks)} idle connections")
    return (f"{len(socks)} opened: {held} held, {closed} longest-idle closed to make room, {refused} refused; "
            f"newest served: {served}; {peak_fds} fds at peak, {idle_cpu:.2f} s CPU in 1 s idle")


SLOW_BODY_HEAD = (b"POST /api/pets HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 100000\r\n\r\n{")


def made_room(sock):
    """What a held body's socket says now: 'held' (nothing yet), 408 or 503 (closed to make
    room with that status), 'closed' or 'reset' (closed without a status), or 'other'."""
    sock.setblocking(False)
    try:
        data = sock.recv(64)
        if data.startswith(b"HTTP/1.1 408"):
            return 408
        if data.startswith(b"HTTP/1.1 503"):
            return 503
        return "closed" if data == b"" else "other"
    except BlockingIOError:
        return "held"
    except ConnectionResetError:
        return "reset"
    except OSError:
        return "other"


def slow_bodies(suite, extra=100, newcomers=20):
    """Connections past the limit each start a 100,000-byte body and send one byte: each one
    past the limit takes the place of the body that has made the least recent progress (503,
    or 408 once it has sent nothing for the stalled-request age), and so does each new client,
    which is served: the good client is never refused."""
    port = suite.server.port
    socks = []
    for _ in range(CONNECTION_LIMIT + extra):
        sock = connect(port, timeout=3)
        try:
            sock.sendall(SLOW_BODY_HEAD)
        except OSError:
            pass
        socks.append(sock)
    time.sleep(STALLED_REQUEST_AGE + 0.5)
    served = 0
    for _ in range(newcomers):
        try:
            statuses, _, _ = exchange(port, f"GET {suite.good_path} HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n".encode())
            served += statuses == [200]
        except OSError:
            pass
    endings = [made_room(sock) for sock in socks]
    for sock in socks:
        sock.close()
    held, timed_out, overload = endings.count("held"), endings.count(408), endings.count(503)
    quiet = endings.count("closed") + endings.count("reset")
    other = endings.count("other")
    suite.check(served == newcomers, f"slow bodies: {newcomers - served} of {newcomers} new clients not served")
    # The first client past the limit (a newcomer, or the good client while the bodies start)
    # takes a body's place; later ones take the places that earlier ones gave back (the hostile
    # clients here do not reconnect), so how many go with 408 rather than 503 varies.
    suite.check(timed_out + overload + quiet >= extra, f"slow bodies: only {timed_out + overload + quiet} bodies made room for {extra}")
    suite.check(other == 0, f"slow bodies: {other} connections neither held nor closed to make room")
    return (f"{len(socks)} bodies started: {held} held, {overload} closed with 503 and {timed_out} with 408 to make "
            f"room, {quiet} closed or reset; {served}/{newcomers} new clients served")


def trickled_bodies(suite, connections=4200, interval=4.0, rounds=3):
    """More connections than the limit each send a body a byte every `interval` seconds, and
    reconnect when closed, so every place stays held by a body that moved within the last
    `interval`, most of them within the stalled-request age. Right after a round of bytes
    (nothing stalled), a new client's first request takes the place of the body that has made
    the least recent progress (503) and is answered 200; so is every request of the good
    client meanwhile."""
    port = suite.server.port
    request = f"GET {suite.good_path} HTTP/1.1\r\nHost: good\r\nConnection: close\r\n\r\n".encode()
    started = time.monotonic()

    def open_body():
        try:
            sock = connect(port, timeout=3)
            sock.sendall(SLOW_BODY_HEAD)
            return sock
        except OSError:
            return None

    socks = [open_body() for _ in range(connections)]
    opened = time.monotonic() - started
    counts = {"held": 0, 408: 0, 503: 0, "closed": 0, "reset": 0, "other": 0, "reconnected": 0}
    firsts = []  # (status, milliseconds) of each new client's first request, one per round

    def trickle():
        for index, sock in enumerate(socks):
            ending = made_room(sock) if sock else "closed"
            if ending != "held":
                counts[ending] += 1
                if sock:
                    sock.close()
                socks[index] = open_body()
                counts["reconnected"] += 1
                continue
            try:
                sock.send(b" ")
            except OSError:
                counts["reset"] += 1
                sock.close()
                socks[index] = open_body()
                counts["reconnected"] += 1

    for _ in range(rounds):
        tick = time.monotonic()
        trickle()
        # Every place is held by a body that moved a moment ago: none has stalled.
        sent = time.monotonic()
        try:
            statuses, _, _ = exchange(port, request)
        except OSError:
            statuses = []
        firsts.append((statuses[0] if statuses else None, (time.monotonic() - sent) * 1000))
        time.sleep(max(0.0, tick + interval - time.monotonic()))
    endings = [made_room(sock) if sock else "closed" for sock in socks]
    for sock in socks:
        if sock:
            sock.close()
    for ending in endings:
        if ending != "held":
            counts[ending] += 1
    held = endings.count("held")
    first_statuses = [status for status, _ in firsts]
    suite.check(first_statuses == [200] * rounds,
                f"trickled bodies: new clients' first requests got {first_statuses}, not 200")
    suite.check(counts["other"] == 0, f"trickled bodies: {counts['other']} connections neither held nor closed to make room")
    suite.check(counts[503] + counts[408] >= rounds, "trickled bodies: no body was closed with 503 or 408 to make room")
    return (f"{connections} bodies a byte every {interval:.0f} s (opened in {opened:.1f} s), {rounds} rounds: first request "
            f"of a new client after each round {' '.join(f'{s} in {ms:.0f} ms' for s, ms in firsts)}; "
            f"{counts[503]} bodies closed with 503 and {counts[408]} with 408 to make room, "
            f"{counts['closed'] + counts['reset']} closed or reset, {counts['reconnected']} reconnected, {held} held at the end")


def descriptor_limit(suite, connections=300):
    """More idle connections than the process has descriptors: the newest are taken in, the
    longest idle closed to make room, and the loop does not spin."""
    port = suite.server.port
    held = [connect(port, timeout=3) for _ in range(connections)]
    cpu = suite.server.cpu_seconds()
    time.sleep(1.0)
    idle_cpu = suite.server.cpu_seconds() - cpu
    newest = held[-1]
    newest.sendall(b"GET /api/pets HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
    data, ending = read_to_end(newest)
    newest_served = data.startswith(b"HTTP/1.1 200")
    oldest, oldest_ending = read_to_end(held[0])
    for sock in held:
        sock.close()
    suite.check(newest_served, f"fd limit: the newest connection got {data[:30]!r} ({ending})")
    suite.check(oldest == b"" and oldest_ending == "closed",
                f"fd limit: the oldest idle connection got {oldest[:30]!r} ({oldest_ending}), not a close")
    suite.check(idle_cpu < 0.3, f"fd limit: {idle_cpu:.2f} s CPU in 1 s at the descriptor limit")
    return (f"{connections} opened at ulimit -n 256: newest served: {newest_served}, oldest closed: "
            f"{oldest_ending}; {idle_cpu:.2f} s CPU in 1 s")


def oversized(suite):
    port = suite.server.port
    cases = [
        ("request line 10 KiB", b"GET /" + b"a" * 10240 + b" HTTP/1.1\r\nHost: h\r\n\r\n", 414),
        ("headers 70 KiB", b"GET / HTTP/1.1\r\nHost: h\r\n" + b"X-Big: " + b"b" * 70000 + b"\r\n\r\n", 431),
        ("8,000 header fields", b"GET / HTTP/1.1\r\nHost: h\r\n" + b"".join(b"X-%d: v\r\n" % n for n in range(8000)) + b"\r\n", 431),
        ("Content-Length 9 MiB", b"POST /api/pets HTTP/1.1\r\nHost: h\r\nContent-Length: 9437184\r\n\r\n", 413),
        ("chunked body past 8 MiB", b"POST /api/pets HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
         + (b"100000\r\n" + b"c" * 0x100000 + b"\r\n") * 9 + b"0\r\n\r\n", 413),
        ("Content-Length 20 digits", b"POST /api/pets HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999\r\n\r\n", 400),
    ]
    results = []
    for name, raw, expected in cases:
        statuses, ending, _ = exchange(port, raw, timeout=10)
        suite.check(statuses == [expected] and ending == "closed",
                    f"oversized {name}: expected [{expected}] and a close, got {statuses} ({ending})")
        results.append(f"{expected}" if statuses == [expected] else f"{statuses}")
    return f"{len(cases)} cases: " + " ".join(results)


def smuggling(suite, count_path):
    """Ambiguous framing is refused with one response and a close: nothing behind it is served."""
    port = suite.server.port
    # What a front end would see as the body of the first request, and we as a second one.
    tail = (b'POST /api/pets HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: 36\r\n\r\n'
            b'{"firstName": "Smuggled", "vetId": 1}')
    cases = [
        ("CL + TE", b"POST /api/pets HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + tail, 400),
        ("TE + CL", b"POST /api/pets HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n" + tail, 400),
        ("duplicate CL", b"POST /api/pets HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\nContent-Length: 39\r\n\r\n" + tail, 400),
        ("CL list differing", b"POST /api/pets HTTP/1.1\r\nHost: h\r\nContent-Length: 0, 39\r\n\r\n" + tail, 400),
        ("CL with sign", b"POST /api/pets HTTP/1.1\r\nHost: h\r\nContent-Length: +39\r\n\r\n" + tail, 400),
        ("CL hexadecimal", b"POST /api/pets HTTP/1.1\r\nHost: h\r\nContent-Length: 0x27\r\n\r\n" + tail, 400),
        ("TE gzip, chunked", b"POST /api/pets HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n" + tail, 501),
        ("TE chunked twice", b"POST /api/pets HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n" + tail, 400),
        ("TE xchunked", b"POST /api/pets HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: xchunked\r\n\r\n0\r\n\r\n" + tail, 501),
        ("TE on HTTP/1.0", b"POST /api/pets HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + tail, 400),
        ("TE obs-fold", b"POST /api/pets HTTP/1.1\r\nHost: h\r\nTransfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\n" + tail, 400),
        ("TE with space before colon", b"POST /api/pets HTTP/1.1\r\nHost: h\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n" + tail, 400),
        ("negative chunk size", b"POST /api/pets HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\nx\r\n0\r\n\r\n" + tail, 400),
        ("chunk size 0x prefix", b"POST /api/pets HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0x5\r\nhello\r\n0\r\n\r\n" + tail, 400),
        ("chunk size overflow", b"POST /api/pets HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffff1\r\nx\r\n0\r\n\r\n" + tail, 413),
        ("chunk without CRLF", b"POST /api/pets HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX0\r\n\r\n" + tail, 400),
        ("bare CR in header", b"GET /api/pets HTTP/1.1\r\nHost: h\rX: y\r\n\r\n" + tail, 400),
        ("NUL in header", b"GET /api/pets HTTP/1.1\r\nHost: h\r\nX: a\x00b\r\n\r\n" + tail, 400),
        ("two Host headers", b"GET /api/pets HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n" + tail, 400),
        ("no Host", b"GET /api/pets HTTP/1.1\r\n\r\n" + tail, 400),
        ("Host with a space", b"GET /api/pets HTTP/1.1\r\nHost: a b\r\n\r\n" + tail, 400),
        ("Host with a slash", b"GET /api/pets HTTP/1.1\r\nHost: a/b\r\n\r\n" + tail, 400),
        ("HTTP/2 preface", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + tail, 505),
    ]
    before = pet_count(port, count_path)
    refused = 0
    for name, raw, expected in cases:
        statuses, ending, _ = exchange(port, raw)
        ok = statuses == [expected] and ending == "closed"
        refused += ok
        suite.check(ok, f"smuggling {name}: expected exactly [{expected}] then a close, got {statuses} ({ending})")
    after = pet_count(port, count_path)
    suite.check(before == after, f"smuggling: the pet count changed from {before} to {after}")
    return f"{refused}/{len(cases)} refused with one response and a close"


def pet_count(port, path):
    statuses, _, data = exchange(port, f"GET {path} HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n".encode())
    body = data.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in data else b"[]"
    try:
        value = json.loads(body)
        return len(value) if isinstance(value, list) else -1
    except ValueError:
        return -1


def pipelined_flood(suite, path, requests=20000):
    """Thousands of requests in one write while reading concurrently: all answered, in order."""
    port = suite.server.port
    sock = connect(port, timeout=20)
    request = f"GET {path} HTTP/1.1\r\nHost: h\r\n\r\n".encode()
    sender = threading.Thread(target=lambda: sock.sendall(request * requests), daemon=True)
    marker = b"HTTP/1.1 200 OK\r\n"
    start = time.monotonic()
    sender.start()
    chunks, count, tail = [], 0, b""
    try:
        while count < requests:
            chunk = sock.recv(1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
            # Count status lines as they come, a line split between reads included.
            window = tail + chunk
            count += window.count(marker)
            last = window.rfind(marker)
            tail = window[last + len(marker):] if last >= 0 else window
            tail = tail[-(len(marker) - 1):]
    except socket.timeout:
        pass
    took = time.monotonic() - start
    sender.join(5)
    sock.close()
    data = b"".join(chunks)
    other = data.count(b"HTTP/1.1 ") - data.count(marker)
    suite.check(count == requests and other == 0, f"pipelined: {count} of {requests} answered 200, {other} other")
    return f"{count}/{requests} pipelined requests answered 200 in {took:.1f} s"


def unread_flood(suite, path, seconds=4.0):
    """Pipelined requests from a client that never reads: the server stops reading (backpressure)
    instead of buffering without bound."""
    port = suite.server.port
    sock = connect(port, timeout=0.5)
    request = f"GET {path} HTTP/1.1\r\nHost: h\r\n\r\n".encode() * 1000
    sent = 0
    rss_before = suite.server.rss_kb()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            sent += sock.send(request)
        except socket.timeout:
            pass
        except OSError:
            break
    rss_peak = suite.server.rss_kb()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()
    growth = (rss_peak - rss_before) / 1024
    suite.check(growth < 64, f"unread flood: RSS grew {growth:.1f} MB while the client did not read")
    return f"{sent / 1e6:.1f} MB sent before the server stopped reading, RSS +{growth:.1f} MB"


def vanishing(suite, path, dribble_path=None, rounds=300):
    """Clients that go away mid-response: reset after a few bytes, close before reading, or
    half-close right after the request; with a dribbled response, vanish between chunks."""
    port = suite.server.port
    request = f"GET {path} HTTP/1.1\r\nHost: h\r\n\r\n".encode()
    for round_number in range(rounds):
        sock = connect(port, timeout=5, receive_buffer=4096)
        try:
            sock.sendall(request * 4)
            kind = round_number % 3
            if kind == 0:
                sock.recv(100)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            elif kind == 1:
                sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        sock.close()
    detail = f"{rounds} clients reset, closed or half-closed mid-response"
    if dribble_path:
        socks = []
        for _ in range(50):
            sock = connect(port, timeout=5)
            sock.sendall(f"GET {dribble_path} HTTP/1.1\r\nHost: h\r\n\r\n".encode())
            socks.append(sock)
        for sock in socks:
            sock.recv(64)
        for index, sock in enumerate(socks):
            if index % 2:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()
        detail += ", 50 left a dribbled response after its first chunk"
    return detail


class Sentinel(threading.Thread):
    """A listener that counts connections: an absolute-form URI must never reach it."""

    def __init__(self):
        super().__init__(daemon=True)
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self.running = True

    def run(self):
        while self.running:
            try:
                connection, _ = self.sock.accept()
                self.connections += 1
                connection.close()
            except socket.timeout:
                pass

    def stop(self):
        self.running = False
        self.join(2)
        self.sock.close()


def absolute_form(suite, path, sentinel):
    port = suite.server.port
    elsewhere = f"http://127.0.0.1:{sentinel.port}"
    cases = [
        (f"GET {elsewhere}{path} HTTP/1.1\r\nHost: 127.0.0.1:{sentinel.port}\r\nConnection: close\r\n\r\n", (200,)),
        (f"GET {elsewhere}/nowhere HTTP/1.1\r\nHost: 127.0.0.1:{sentinel.port}\r\nConnection: close\r\n\r\n", (404,)),
        (f"GET http://example.invalid{path} HTTP/1.1\r\nHost: example.invalid\r\nConnection: close\r\n\r\n", (200,)),
        (f"CONNECT 127.0.0.1:{sentinel.port} HTTP/1.1\r\nHost: 127.0.0.1:{sentinel.port}\r\nConnection: close\r\n\r\n",
         (400, 404, 405, 501)),
    ]
    results = []
    for raw, allowed in cases:
        statuses, _, _ = exchange(port, raw.encode())
        suite.check(len(statuses) == 1 and statuses[0] in allowed,
                    f"absolute-form {raw.split(' HTTP')[0]}: expected one of {allowed}, got {statuses}")
        results.append(str(statuses[0]) if statuses else "none")
    suite.check(sentinel.connections == 0, f"absolute-form: {sentinel.connections} connections reached the other host")
    return f"served locally ({' '.join(results)}), {sentinel.connections} connections elsewhere"


def admin_post(port, path, document):
    body = json.dumps(document).encode()
    raw = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n"
           "Connection: close\r\n\r\n").encode() + body
    statuses, _, _ = exchange(port, raw)
    return statuses


def petapi_setup(server):
    """3,000 more pets, so the pet list is larger than the socket buffers."""
    request = b""
    for number in range(3000):
        body = json.dumps({"firstName": f"Pet{number}", "lastName": "Hostile", "vetId": 1 + number % 3}).encode()
        request += (b"POST /api/pets HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\n"
                    b"Content-Length: %d\r\n\r\n" % len(body)) + body
    sock = connect(server.port, timeout=30)
    sock.sendall(request + b"GET /api/pets HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
    data, _ = read_to_end(sock)
    sock.close()
    created = responses(data).count(201)
    if created != 3000:
        raise RuntimeError(f"petapi setup: {created} of 3000 pets created")


def petmock_setup(server):
    """A 2 MB body and a dribbled one, added through the admin API."""
    big = {"request": {"method": "GET", "urlPath": "/hostile/big"},
           "response": {"status": 200, "body": "x" * (2 << 20), "headers": {"Content-Type": "text/plain"}}}
    dribble = {"request": {"method": "GET", "urlPath": "/hostile/dribble"},
               "response": {"status": 200, "body": "y" * 20000,
                            "chunkedDribbleDelay": {"numberOfChunks": 20, "totalDuration": 2000}}}
    for mapping in (big, dribble):
        statuses = admin_post(server.port, "/__admin/mappings", mapping)
        if statuses != [201]:
            raise RuntimeError(f"petmock setup: admin answered {statuses}")


def proxied_absolute_form(suite, sentinel):
    """With --proxy-unmatched, an absolute-form request for another host goes to the configured
    upstream (petapi, which has /health), never to the host it names."""
    port = suite.server.port
    raw = (f"GET http://127.0.0.1:{sentinel.port}/health HTTP/1.1\r\nHost: 127.0.0.1:{sentinel.port}\r\n"
           "Connection: close\r\n\r\n").encode()
    statuses, _, data = exchange(port, raw)
    suite.check(statuses == [200], f"proxied absolute-form: expected [200] from the upstream, got {statuses}")
    suite.check(sentinel.connections == 0, f"proxied absolute-form: {sentinel.connections} connections elsewhere")
    return f"answered {statuses} by the configured upstream, {sentinel.connections} connections elsewhere"


def run_proxy(server):
    suite = Suite(server, "/api/pets")
    suite.good.start()
    sentinel = Sentinel()
    sentinel.start()
    # Warm-up: the first proxied request starts the upstream client (its own descriptors) and
    # leaves a kept-alive connection to the upstream. Each event loop (one per core) has its own
    # client and keeps its own connection: a request on another loop may open one more, which
    # stays (bounded, per loop), so that many descriptors may stay above the baseline.
    exchange(server.port, b"GET /health HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
    suite.fd_slack = max(0, (os.cpu_count() or 1) - 1)
    start_fds, start_rss = server.fds(), server.rss_kb()
    suite.scenario("proxied absolute-form", lambda: proxied_absolute_form(suite, sentinel))
    suite.good.running = False
    suite.good.join(10)
    sentinel.stop()
    suite.settle(start_fds)
    suite.totals = (start_fds, server.fds(), start_rss, server.rss_kb())
    return suite



class SilentListener:
    """A port that takes connections into its backlog and never reads or answers: a webhook
    receiver that never answers."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(256)
        self.port = self.sock.getsockname()[1]

    def close(self):
        self.sock.close()


def closed_port():
    """A port where nothing listens: bound, then closed."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return port


def webhook_calls(port):
    """GET /__admin/petmock/webhooks, parsed."""
    raw = b"GET /__admin/petmock/webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    statuses, _, data = exchange(port, raw)
    if statuses != [200]:
        return None
    return json.loads(data.split(b"\r\n\r\n", 1)[1])


def webhooks_against(suite, path, target_url, requests=200):
    """`requests` requests to a stub whose webhook calls `target_url`: every client's answer is
    the stub's, at once; then (bounded wait) no call is pending and every call is recorded as
    failed or refused, none answered."""
    port = suite.server.port
    before = webhook_calls(port)
    seen = len(before["webhooks"]) + before["dropped"] if before else 0
    raw = f"POST {path} HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n{{}}".encode()
    sock = connect(port, timeout=30)
    sock.sendall(raw * (requests - 1) + raw.replace(b"Host: h\r\n", b"Host: h\r\nConnection: close\r\n"))
    data, _ = read_to_end(sock)
    sock.close()
    statuses = responses(data)
    suite.check(statuses == [202] * requests,
                f"webhook to {target_url}: the clients' answers changed ({len(statuses)} answers, "
                f"{statuses.count(202)} of them 202)")
    deadline = time.monotonic() + 30
    listing = None
    while time.monotonic() < deadline:
        listing = webhook_calls(port)
        if listing and listing["pending"] == 0 and len(listing["webhooks"]) + listing["dropped"] - seen >= requests:
            break
        time.sleep(0.1)
    if not suite.check(listing is not None and listing["pending"] == 0,
                       f"webhook to {target_url}: calls still pending after 30 s"):
        return "calls still pending"
    calls = [call for call in listing["webhooks"] if call["url"].startswith(target_url)]
    outcomes = {}
    for call in calls:
        outcomes[call["outcome"]] = outcomes.get(call["outcome"], 0) + 1
    suite.check(outcomes.get("answered", 0) == 0 and outcomes.get("failed", 0) > 0,
                f"webhook to {target_url}: outcomes {outcomes}")
    return f"{statuses.count(202)}/{requests} answered 202; webhook outcomes {outcomes}"


def webhook_stub(path, url):
    return {"request": {"method": "POST", "urlPath": path}, "response": {"status": 202, "body": "queued"},
            "serveEventListeners": [{"name": "webhook", "parameters": {"method": "POST", "url": url,
                                                                       "body": "{{originalRequest.body}}"}}]}


def run_webhooks(server):
    """Webhooks pointed at a port where nothing listens and at one that never answers (each call
    then waits for petmock's 10 s webhook timeout, at most 64 at once, the rest refused)."""
    suite = Suite(server, "/api/pets")
    suite.good.start()
    silent = SilentListener()
    closed = closed_port()
    closed_url = f"http://127.0.0.1:{closed}/callback"
    silent_url = f"http://127.0.0.1:{silent.port}/callback"
    for path, url in (("/hostile/hook-closed", closed_url), ("/hostile/hook-silent", silent_url)):
        statuses = admin_post(server.port, "/__admin/mappings", webhook_stub(path, url))
        if statuses != [201]:
            raise RuntimeError(f"petmock webhook setup: admin answered {statuses}")
    for _ in range(20):
        exchange(server.port, b"GET /api/pets HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
    start_fds, start_rss = server.fds(), server.rss_kb()
    suite.scenario("webhook, no listener", lambda: webhooks_against(suite, "/hostile/hook-closed", closed_url))
    suite.scenario("webhook, no answer", lambda: webhooks_against(suite, "/hostile/hook-silent", silent_url))
    suite.good.running = False
    suite.good.join(10)
    silent.close()
    suite.settle(start_fds)
    suite.totals = (start_fds, server.fds(), start_rss, server.rss_kb())
    return suite


def run_suite(server, good_path, count_path, big_path, dribble_path=None, trickle=False):
    suite = Suite(server, good_path)
    suite.good.start()
    sentinel = Sentinel()
    sentinel.start()
    # Warm-up: the first requests allocate what every later one reuses.
    for _ in range(50):
        exchange(server.port, f"GET {good_path} HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n".encode())
    start_fds, start_rss = server.fds(), server.rss_kb()
    suite.scenario("slowloris", lambda: slowloris(suite))
    suite.scenario("oversized", lambda: oversized(suite))
    suite.scenario("smuggling", lambda: smuggling(suite, count_path))
    suite.scenario("pipelined flood", lambda: pipelined_flood(suite, good_path))
    suite.scenario("unread flood", lambda: unread_flood(suite, good_path))
    suite.scenario("vanishing clients", lambda: vanishing(suite, big_path, dribble_path))
    suite.scenario("absolute-form", lambda: absolute_form(suite, good_path, sentinel))
    suite.scenario("connection flood", lambda: connection_flood(suite))
    suite.scenario("slow bodies", lambda: slow_bodies(suite))
    if trickle:
        suite.scenario("trickled bodies", lambda: trickled_bodies(suite))
    suite.good.running = False
    suite.good.join(10)
    sentinel.stop()
    suite.settle(start_fds)
    end_fds, end_rss = server.fds(), server.rss_kb()
    suite.check(end_fds == start_fds, f"descriptors {start_fds} at the start, {end_fds} at the end")
    # What may stay: the allocator's arenas after the floods, and in petmock the request
    # journal (bounded, 10,000 entries) filled by the pipelined flood. A leak would be more.
    suite.check(end_rss < start_rss + 8 * 1024, f"RSS {start_rss} kB at the start, {end_rss} kB at the end")
    suite.totals = (start_fds, end_fds, start_rss, end_rss)
    return suite


def run_limited(server):
    suite = Suite(server, "/api/pets")
    suite.good.start()
    for _ in range(20):
        exchange(server.port, b"GET /api/pets HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
    start_fds, start_rss = server.fds(), server.rss_kb()
    suite.scenario("descriptor limit", lambda: descriptor_limit(suite))
    suite.good.running = False
    suite.good.join(10)
    suite.settle(start_fds)
    suite.totals = (start_fds, server.fds(), start_rss, server.rss_kb())
    return suite


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True, help="folder with petapi and petmock")
    parser.add_argument("--stubs", default="Stubs")
    parser.add_argument("--results")
    parser.add_argument("--only", choices=["petapi", "petmock", "webhooks"])
    options = parser.parse_args()
    options.bin = os.path.abspath(options.bin)
    work = tempfile.mkdtemp(prefix="petkit-hostile-")
    suites = []
    try:
        if options.only in (None, "petapi"):
            server = Server("petapi", [f"{options.bin}/petapi", "serve", "--db", f"{work}/api.sqlite", "--port", "0"], work)
            try:
                petapi_setup(server)
                suites.append(run_suite(server, "/api/pets/1", "/api/pets", "/api/pets"))
            finally:
                server.stop()
            server = Server("petapi (ulimit -n 256)", [f"{options.bin}/petapi", "serve", "--db", f"{work}/api2.sqlite",
                                                      "--port", "0", "--event-loops", "1"], work, open_file_limit=256)
            try:
                suites.append(run_limited(server))
            finally:
                server.stop()
        if options.only in (None, "petmock"):
            stubs = os.path.abspath(options.stubs)
            server = Server("petmock", [f"{options.bin}/petmock", "serve", "--stubs", stubs, "--port", "0"], work)
            try:
                petmock_setup(server)
                suites.append(run_suite(server, "/api/pets", "/api/pets", "/hostile/big", "/hostile/dribble", trickle=True))
            finally:
                server.stop()
        if options.only in (None, "petmock", "webhooks"):
            stubs = os.path.abspath(options.stubs)
            server = Server("petmock webhooks", [f"{options.bin}/petmock", "serve", "--stubs", stubs, "--port", "0"], work)
            try:
                suites.append(run_webhooks(server))
            finally:
                server.stop()
        if options.only in (None, "petmock"):
            upstream = Server("petapi (upstream)", [f"{options.bin}/petapi", "serve", "--db", f"{work}/api3.sqlite",
                                                    "--port", "0"], work)
            try:
                server = Server("petmock --proxy-unmatched", [f"{options.bin}/petmock", "serve", "--stubs", stubs,
                                                              "--port", "0", "--proxy-unmatched",
                                                              f"http://127.0.0.1:{upstream.port}"], work)
                try:
                    suites.append(run_proxy(server))
                finally:
                    server.stop()
            finally:
                upstream.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)

    lines = []
    failures = []
    for suite in suites:
        start_fds, end_fds, start_rss, end_rss = suite.totals
        lines.append(f"== {suite.server.name}: fds {start_fds} -> {end_fds}, RSS {start_rss / 1024:.1f} MB -> {end_rss / 1024:.1f} MB")
        for row in suite.rows:
            lines.append(f"  {row['scenario']:<18} {row['seconds']:>5} s  fds {row['fds']:<10} RSS {row['rss_mb']:<12} MB  "
                         f"cpu {row['cpu_s']:>5} s  good client {row['good']}")
            lines.append(f"  {'':<18} {row['detail']}")
        failures += suite.failures
    lines.append(f"checks failed: {len(failures)}")
    print("\n".join(lines))
    for failure in failures:
        print("FAIL:", failure, file=sys.stderr)
    if options.results:
        with open(options.results, "w") as results:
            results.write(f"# make hostile: hostile clients against petapi and petmock (release builds), loopback\n")
            results.write(f"# {time.strftime('%Y-%m-%dT%H:%MZ', time.gmtime())} on {os.cpu_count()} cores; "
                          "fds from /proc/PID/fd, RSS from /proc/PID/status (VmRSS)\n")
            results.write("\n".join(lines) + "\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
