#!/usr/bin/env python3
"""Starts a server command and measures the time from spawning it to its first complete
200 response on 127.0.0.1:PORT. Prints 'PID MILLISECONDS'; the server keeps running.
Usage: first-response.py PORT COMMAND [ARG...]"""
import socket
import subprocess
import sys
import time

port = int(sys.argv[1])
command = sys.argv[2:]
start = time.monotonic()
process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, start_new_session=True)
request = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
while True:
    if time.monotonic() - start > 10 or process.poll() is not None:
        print(f"first-response: no response from {command[0]} within 10 s", file=sys.stderr)
        process.kill()
        sys.exit(1)
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as connection:
            connection.sendall(request)
            data = b""
            while True:
                chunk = connection.recv(4096)
                if not chunk:
                    break
                data += chunk
        if data.startswith(b"HTTP/1.1 200"):
            break
    except OSError:
        time.sleep(0.0002)
elapsed = (time.monotonic() - start) * 1000
print(process.pid, f"{elapsed:.1f}")
