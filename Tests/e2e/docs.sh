#!/usr/bin/env bash
# Runs the shell blocks of every page in docs/ as written (one shell per page, from the
# repository root, the built tools of .build/debug on PATH) and checks that each output and
# transcript a page shows is what its commands print. Blocks that cannot run here are marked
# `<!-- readme.sh: skip: REASON -->` and the reason is printed.
set -euo pipefail
cd "$(dirname "$0")/../.."
PAGES_TOOLS_ON_PATH=1 exec bash Tests/e2e/lib/run-pages.sh docs/*.md
