#!/usr/bin/env bash
# Round trip through the admin API with Python's `wiremock` client (PyPI): list, create and
# delete mappings, read the journal. Builds petmock, starts it on a free port (it prints the
# bound port once listening), runs the check, stops it. Exit status: the check's.
set -euo pipefail
cd "$(dirname "$0")/../.."

. Tests/e2e/lib/venv.sh
python_with wiremock wiremock

swift build --product petmock >&2
binary="$(swift build --show-bin-path)/petmock"

stubs="$(mktemp -d)"
trap 'rm -rf "$stubs"' EXIT
cp -R Stubs/. "$stubs/"

# The other two subcommands, briefly: validate's exit codes and messages, variants' listing.
"$binary" validate --stubs Stubs >/dev/null
mkdir -p "$stubs-broken/mappings"
echo '{"request": {"url": "/x"}, "response": {"status": "200"}}' > "$stubs-broken/mappings/bad.json"
set +e
message="$("$binary" validate --stubs "$stubs-broken")"
status=$?
set -e
rm -rf "$stubs-broken"
if [ "$status" -ne 1 ] || ! grep -q "bad.json: error: \$.response.status: expected an integer" <<<"$message"; then
    echo "wiremock-python-client: FAIL: petmock validate on a broken folder: exit $status, output: $message" >&2
    exit 1
fi
"$binary" variants --stubs Stubs | grep -q "vet-id-string" || { echo "petmock variants: FAIL" >&2; exit 1; }

"$venv_python" Tests/e2e/wiremock_client_check.py "$binary" "$stubs"
