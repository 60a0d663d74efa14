# Sourced by the browser tests (html-report.sh, dashboard.sh): finds Debian's chromium and
# chromedriver (make test-deps installs them) and makes sure Selenium is in Tests/e2e/.venv
# (installed from PyPI on first run). Sets $chromium, $chromedriver and $browser_python.
# Expects a fail() function and the repository root as the working directory.
chromium="$(command -v chromium || true)"
chromedriver="$(command -v chromedriver || true)"
[ -n "$chromium" ] && [ -n "$chromedriver" ] ||
    fail "chromium and chromedriver are needed: make test-deps (or apt-get install chromium chromium-driver)"

venv="Tests/e2e/.venv"
if ! "$venv/bin/python" -c 'import selenium' 2>/dev/null; then
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check selenium
fi
browser_python="$venv/bin/python"
