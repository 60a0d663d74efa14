#!/usr/bin/env bash
# petmock's dashboard (/__admin/ui) in a real browser: builds petmock, serves a copy of
# Stubs/ plus a scenario (and a stub whose name is a <script>) on a free port, and has
# dashboard_check.py drive the page in headless Chromium through chromedriver: the mappings
# listed by file, a variant switched with one click served to the next request, an unmatched
# request in the live journal with its near miss, a scenario state set, a load problem shown, no injected script
# run, no console error (a Content-Security-Policy refusal included), and a state change sent
# from another origin refused; with --openapi, the document's operations listed and a refused
# request's violations shown, and an answer that breaks its response schema marked with its
# violations. A second petmock with --admin-token checks that the page asks
# for the token and then works.
#
# Needs what html-report.sh needs (Tests/e2e/lib/browser.sh). Screenshots go to the temporary
# folder; to refresh the documentation's:
#   Tests/e2e/dashboard.sh --screenshots docs/images
set -euo pipefail
cd "$(dirname "$0")/../.."

screenshots=""
if [ "${1:-}" = "--screenshots" ]; then
    screenshots="$(cd "${2:?--screenshots needs a folder}" && pwd)"
fi

fail() {
    echo "dashboard: FAIL: $*" >&2
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

cp -R Stubs "$work/stubs"
cat > "$work/stubs/mappings/checkout-scenario.json" <<'JSON'
{"mappings": [
 {"name": "<script>window.__pwned=1</script> order, open",
  "scenarioName": "checkout", "requiredScenarioState": "Started", "newScenarioState": "paid",
  "request": {"method": "POST", "url": "/api/order/pay"},
  "response": {"status": 200, "jsonBody": {"state": "paid"}}},
 {"name": "order while open", "scenarioName": "checkout", "requiredScenarioState": "Started",
  "request": {"method": "GET", "url": "/api/order"},
  "response": {"status": 200, "jsonBody": {"state": "open"}}},
 {"name": "order once paid", "scenarioName": "checkout", "requiredScenarioState": "paid",
  "request": {"method": "GET", "url": "/api/order"},
  "response": {"status": 200, "jsonBody": {"state": "paid"}}}
]}
JSON

# A page with no Content-Security-Policy for the cross-origin check (opened as localhost, which
# is another origin than 127.0.0.1).
echo '{"request": {"method": "GET", "url": "/other-origin.html"}, "response": {"status": 200,
  "headers": {"Content-Type": "text/html"}, "body": "<!doctype html><title>another origin</title>"}}' \
    > "$work/stubs/mappings/other-origin.json"

# A mapping petmock leaves out: the page lists the problem with its file and JSON path.
echo '{"request": {"url": "/api/broken"}, "response": {"status": "200"}}' > "$work/stubs/mappings/broken.json"

. Tests/e2e/lib/petmock.sh
start_petmock "$work/petmock.log" --stubs "$work/stubs"
url="$started_url"
start_petmock "$work/petmock-token.log" --stubs "$work/stubs" --admin-token dashboard-s3cret
token_url="$started_url"
# A third serves an OpenAPI document: its operations listed, a refused request's violations.
start_petmock "$work/petmock-document.log" --stubs "$work/stubs" --openapi Tests/OpenAPIMockTests/Fixtures/orders.yaml
document_url="$started_url"
# A fourth serves a document whose example breaks its response schema: the answer's violations.
echo '{"openapi": "3.0.3", "info": {"title": "bad", "version": "1"}, "paths": {"/bad": {"get": {
  "operationId": "getBad", "responses": {"200": {"description": "ok", "content": {"application/json": {
  "schema": {"type": "object", "properties": {"id": {"type": "integer"}}},
  "example": {"id": "seven"}}}}}}}}}' > "$work/bad-example.openapi.json"
start_petmock "$work/petmock-answer.log" --openapi "$work/bad-example.openapi.json"
answer_url="$started_url"

"$browser_python" Tests/e2e/dashboard_check.py \
    --chromium "$chromium" --chromedriver "$chromedriver" --url "$url" \
    --token-url "$token_url" --token dashboard-s3cret --document-url "$document_url" --answer-url "$answer_url" \
    --screenshots "${screenshots:-$work}"
