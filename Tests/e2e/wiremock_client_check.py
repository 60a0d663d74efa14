"""Drives petmock's admin API with the `wiremock` PyPI client. Starts the server itself
(port 0; the port is read from petmock's log line naming its URL, on standard error), checks,
stops it.
Usage: wiremock_client_check.py PETMOCK_BINARY STUB_DIR"""
import re
import select
import subprocess
import sys
import threading
import time
import urllib.request

from wiremock.client import HttpMethods, Mapping, MappingRequest, MappingResponse, Mappings, Requests
from wiremock.constants import Config

binary, stubs = sys.argv[1], sys.argv[2]
server = subprocess.Popen([binary, "serve", "--stubs", stubs, "--port", "0"], stdout=sys.stderr,
                          stderr=subprocess.PIPE, text=True)


def fail(message):
    print(f"wiremock-python-client: FAIL: {message}", file=sys.stderr)
    server.kill()
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


try:
    deadline = time.monotonic() + 60
    match, lines = None, []
    while match is None:
        ready, _, _ = select.select([server.stderr], [], [], max(0, deadline - time.monotonic()))
        check(ready, "petmock did not report readiness within 60 s")
        line = server.stderr.readline()
        check(line, f"petmock ended before naming its URL: {''.join(lines)!r}")
        lines.append(line)
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
    # Pass the rest of its log on, so a full pipe never blocks it.
    threading.Thread(target=lambda: [sys.stderr.write(line) for line in server.stderr], daemon=True).start()
    base = f"http://127.0.0.1:{match.group(1)}"
    Config.base_url = base + "/__admin"
    Config.timeout = 10

    everything = Mappings.retrieve_all_mappings()
    check(everything.meta.total == len(everything.mappings) > 0, "listing the file mappings")
    check(any(m.id == "5d1a4c52-0000-4000-8000-000000000001" for m in everything.mappings), "pets mapping listed")

    created = Mappings.create_mapping(Mapping(
        priority=1,
        request=MappingRequest(method=HttpMethods.GET, url="/python/hello"),
        response=MappingResponse(status=200, body="hello from python"),
        persistent=False,
    ))
    check(created.id, "created mapping has an id")
    with urllib.request.urlopen(base + "/python/hello") as reply:
        check(reply.read() == b"hello from python", "the created stub answers")
        check(reply.headers["Matched-Stub-Id"] == created.id, "Matched-Stub-Id names the created stub")
    check(Mappings.retrieve_mapping(created.id).request.url == "/python/hello", "retrieve by id")
    check(Mappings.retrieve_all_mappings().meta.total == everything.meta.total + 1, "listed after create")

    journal = Requests.get_all_received_requests()
    check(journal.meta.total >= 1, "journal has requests")
    newest = journal.requests[0]
    check(newest.request.url == "/python/hello" and newest.request.method == "GET", "journal entry's request")
    check(newest.response_definition.status == 200, "journal entry's response status")

    Mappings.delete_mapping(created.id)
    check(all(m.id != created.id for m in Mappings.retrieve_all_mappings().mappings), "deleted mapping gone")
    try:
        urllib.request.urlopen(base + "/python/hello")
        fail("a deleted stub still answers")
    except urllib.error.HTTPError as error:
        check(error.code == 404, "deleted stub: 404")
        check(b"Request was not matched" in error.read(), "404 report")
    unmatched = Requests.get_unmatched_requests()
    check(any(r.url == "/python/hello" for r in unmatched.requests), "unmatched request journaled")
    print("wiremock-python-client: ok (list, create, get, journal, delete, unmatched)")
finally:
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
