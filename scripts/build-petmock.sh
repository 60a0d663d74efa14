#!/usr/bin/env bash
# Builds petmock as `make serve` runs it (scripts/build-tool.sh says how) and prints its path.
# Usage: scripts/build-petmock.sh [swift build flags]   (SWIFT=path to swift; build output on stderr)
set -euo pipefail
exec "$(dirname "$0")/build-tool.sh" petmock "$@"
