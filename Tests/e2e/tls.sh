#!/usr/bin/env bash
# petcontract against an HTTPS API it cannot trust (a self-signed certificate, served by
# `openssl s_server` on a free port): each endpoint is a clear TLS error and the exit code is
# 2 (could not verify), never a pass, a hang or a crash.
set -euo pipefail
cd "$(dirname "$0")/../.."

command -v openssl >/dev/null || { echo "openssl is not installed (make test-deps installs it)" >&2; exit 1; }
swift build --product petcontract >&2
petcontract="$(swift build --show-bin-path)/petcontract"

work="$(mktemp -d)"
server=""
cleanup() {
    local status=$?
    if [ -n "$server" ]; then
        kill "$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
    fi
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 -days 2 \
    -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
# -accept 0 picks a free port; s_server prints "ACCEPT [::]:PORT" once listening. Its output
# comes through a FIFO, read line by line: that line is the readiness signal.
mkfifo "$work/out"
openssl s_server -accept 0 -cert "$work/cert.pem" -key "$work/key.pem" -www >"$work/out" 2>&1 &
server=$!
exec 3<"$work/out"
port=""
while IFS= read -r -t 10 line <&3; do
    case "$line" in ACCEPT*) port="${line##*:}"; break ;; esac
done
[ -n "$port" ] || { echo "openssl s_server did not report its port" >&2; exit 1; }

set +e
report="$("$petcontract" verify --live "https://127.0.0.1:$port/api" --timeout 5 2>&1)"
status=$?
set -e
if [ "$status" -ne 2 ] || ! grep -q "could not verify: TLS failed: SSL certificate problem: self-signed certificate" <<<"$report"; then
    echo "tls: expected exit 2 and a TLS error for each endpoint, got exit $status:" >&2
    echo "$report" >&2
    exit 1
fi
echo "tls: ok (untrusted certificate: exit 2, $(grep -c 'TLS failed' <<<"$report") endpoints named the TLS error)"
