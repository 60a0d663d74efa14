#!/usr/bin/env bash
# The HTML report in a real browser: builds petcontract, writes `verify --format html` for a
# drifted stub folder (a type change with a <script> in a neighbouring value, a rename, a
# missing optional key, a null, an unknown key, a mapping that is not JSON) and a `diff
# --format html` report, and has html_report_check.py open each in headless Chromium through
# chromedriver (file:// URLs): the findings shown against the JSON report, one finding's path,
# Swift property and marked excerpt, the level filter, that the injected script did not run
# and shows as text, and no console error (a Content-Security-Policy refusal included).
#
# Needs Debian's chromium and chromium-driver (make test-deps installs them) and Selenium
# from PyPI (installed into the e2e virtual environment, Tests/e2e/lib/venv.sh, on first run).
#
# Screenshots go to the temporary folder; to refresh the documentation's:
#   Tests/e2e/html-report.sh --screenshots docs/images
set -euo pipefail
cd "$(dirname "$0")/../.."

screenshots=""
if [ "${1:-}" = "--screenshots" ]; then
    screenshots="$(cd "${2:?--screenshots needs a folder}" && pwd)"
fi

fail() {
    echo "html-report: FAIL: $*" >&2
    exit 1
}

. Tests/e2e/lib/browser.sh

swift build --product petcontract >&2
binary="$(swift build --show-bin-path)/petcontract"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/stubs/mappings"
cat > "$work/stubs/mappings/pets.json" <<'EOF'
{"request": {"method": "GET", "urlPath": "/api/pets"},
 "response": {"status": 200, "headers": {"Content-Type": "application/json"},
  "jsonBody": [
   {"firstName": "Rex", "lastName": "Smith", "vetId": 1},
   {"firstName": "<script>document.title='pwned';window.__pwned=1</script>", "lastName": "Jones", "vetId": "2"},
   {"firstName": "Tom", "vetId": 3, "age": 4},
   {"firstName": "Kit", "lastName": "Lee", "practitionerId": 2}]}}
EOF
cat > "$work/stubs/mappings/vet.json" <<'EOF'
{"request": {"method": "GET", "url": "/api/vets/1"},
 "response": {"status": 200, "headers": {"Content-Type": "application/json"},
  "jsonBody": {"firstName": "Ann", "lastName": "Lee", "title": null}}}
EOF
echo '{"request": {"method": "GET", "url": "/api/vets/2"}, "response": ' > "$work/stubs/mappings/broken.json"

# Run from the folder so that the report names "stubs", not a random temporary path.
report() {
    local status=0
    (cd "$work" && "$binary" "$@") 2>"$work/stderr" || status=$?
    [ "$status" -eq 1 ] || fail "petcontract $*: exit $status, expected 1 (breaking): $(cat "$work/stderr")"
}
report verify --stub stubs --format html --output verify.html
report verify --stub stubs --format json --output verify.json

contract="Contracts/petapi.openapi.json"
sed -e 's/"vetId": {/"vetIdentifier": {/' -e 's/"vetId"/"vetIdentifier"/g' "$contract" > "$work/new.openapi.json"
cp "$contract" "$work/old.openapi.json"
report diff old.openapi.json new.openapi.json --format html --output diff.html
report diff old.openapi.json new.openapi.json --format json --output diff.json

"$browser_python" Tests/e2e/html_report_check.py \
    --chromium "$chromium" --chromedriver "$chromedriver" --work "$work" \
    --screenshots "${screenshots:-$work}"
