#!/usr/bin/env bash
# petmock's CORS in a real browser: builds petmock and serves an OpenAPI document (with a stub
# folder holding one HTML page) on a free port, twice: with --openapi's default (--cors on) and
# with --cors off. cors_check.py has headless Chromium open the page as http://localhost:PORT
# and fetch from http://127.0.0.1:PORT, another origin, a request that needs a preflight (a
# custom header, credentials included): with CORS on it goes through and the page reads an
# exposed header, and the journal shows the preflight (204, "CORS preflight"); with it off,
# the browser blocks it.
#
# Needs what dashboard.sh needs (Tests/e2e/lib/browser.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."

fail() {
    echo "cors: FAIL: $*" >&2
    exit 1
}

. Tests/e2e/lib/browser.sh

swift build --product petmock >&2
binary="$(swift build --show-bin-path)/petmock"

work="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$work/stubs/mappings"
echo '{"request": {"method": "GET", "url": "/page.html"}, "response": {"status": 200,
  "headers": {"Content-Type": "text/html"}, "body": "<!doctype html><title>the app</title>"}}' \
    >"$work/stubs/mappings/page.json"

. Tests/e2e/lib/petmock.sh
start_petmock "$work/petmock.log" --stubs "$work/stubs" --openapi Tests/OpenAPIMockTests/Fixtures/items.yaml
url="$started_url"
start_petmock "$work/petmock-off.log" --stubs "$work/stubs" --openapi Tests/OpenAPIMockTests/Fixtures/items.yaml --cors off
off_url="$started_url"

"$browser_python" Tests/e2e/cors_check.py \
    --chromium "$chromium" --chromedriver "$chromedriver" --url "$url" --off-url "$off_url"
