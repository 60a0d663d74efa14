#!/usr/bin/env bash
# scripts/check-link-closure.sh passes on the modules an app's test target links, and fails,
# naming the path, on one that reaches libcurl or OpenSSL (the socket server's StubServerKit reaches both).
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/check-link-closure.sh
if output=$(CHECK_LINK_MODULES="StubServerKit" bash scripts/check-link-closure.sh 2>&1); then
    echo "check-link-closure: StubServerKit passed, but it links libcurl and OpenSSL" >&2
    exit 1
fi
grep -q "StubServerKit links COpenSSL through StubServerKit -> TLSKit -> COpenSSL" <<<"$output" || {
    echo "check-link-closure: OpenSSL not reported: $output" >&2
    exit 1
}
grep -q "StubServerKit links CCurl through StubServerKit -> HTTPClient -> CCurl" <<<"$output" || {
    echo "check-link-closure: unexpected report: $output" >&2
    exit 1
}
echo "check-link-closure: refuses StubServerKit as it should"
