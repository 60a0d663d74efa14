# Sourced by the e2e scripts that need a Python package from PyPI: one virtual environment,
# outside the repository (third-party code stays out of the working tree), made on first use.
# Usage: python_with MODULE PACKAGE   sets $venv_python to an interpreter that imports MODULE,
# installing PACKAGE when it does not. PETKIT_E2E_VENV names another place for it.
venv_dir="${PETKIT_E2E_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/petkit/e2e-venv}"

python_with() {
    local module=$1 package=$2
    if ! "$venv_dir/bin/python" -c "import $module" 2>/dev/null; then
        [ -x "$venv_dir/bin/python" ] || python3 -m venv "$venv_dir"
        "$venv_dir/bin/pip" install --quiet --disable-pip-version-check "$package"
    fi
    venv_python="$venv_dir/bin/python"
}
