#!/usr/bin/env bash
# scripts/check-link-closure.sh passes on the modules an app's test target links, and fails,
# naming the path, on one that reaches libcurl (the socket server's StubServerKit does).
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/check-link-closure.sh
if output=$(CHECK_LINK_MODULES="StubServerKit" bash scripts/check-link-closure.sh 2>&1); then
    echo "check-link-closure: StubServerKit passed, but it links libcurl" >&2
    exit 1
fi
grep -q "StubServerKit links CCurl through StubServerKit -> HTTPClient -> CCurl" <<<"$output" || {
    echo "check-link-closure: unexpected report: $output" >&2
    exit 1
}
echo "check-link-closure: refuses StubServerKit as it should"
