# Sourced by the browser tests (html-report.sh, dashboard.sh): finds Debian's chromium and
# chromedriver (make test-deps installs them) and makes sure Selenium is in the e2e virtual
# environment (lib/venv.sh; installed from PyPI on first run). Sets $chromium, $chromedriver and $browser_python.
# Expects a fail() function and the repository root as the working directory.
chromium="$(command -v chromium || true)"
chromedriver="$(command -v chromedriver || true)"
[ -n "$chromium" ] && [ -n "$chromedriver" ] ||
    fail "chromium and chromedriver are needed: make test-deps (or apt-get install chromium chromium-driver)"

. Tests/e2e/lib/venv.sh
python_with selenium selenium
browser_python="$venv_python"
