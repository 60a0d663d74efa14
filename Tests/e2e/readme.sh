#!/usr/bin/env bash
# Runs the README's shell blocks as written, top to bottom, in one shell, from the repository
# root (what a new user pastes must work), and checks that each output the README shows is
# exactly what its commands print. The README's first block builds the tools and puts them on
# PATH.
#
# An output block is compared line for line with what its shell block printed, standard output
# and standard error together as a terminal shows them, once both sides are masked (ports after
# a host, timings, UUIDs, dates, temporary paths and process ids compare equal). A block that
# leaves printed lines out says which on its marker, as a regular expression:
#
#   <!-- readme.sh: output; omit: /^petmock: / -->
#
# drops every printed line that matches (Python re.search) before the comparison; `; omit:
# /REGEX/` may repeat, and each must match at least one printed line. Nothing else is left out:
# a `...` line is compared as it stands. `<!-- readme.sh: skip: REASON -->`
# leaves a shell block out and prints why; Tests/e2e/lib/markdown_blocks.py describes every marker.
#
# The blocks run on free ports: the ports the README shows (8080, 8081, 8090) are moved to free
# ones in the commands (Tests/e2e/lib/run-pages.sh). While the blocks run, this script itself
# listens on whichever of the README's ports are free, never answering, so a run passes only if
# no block still needs them, and passes whatever else already listens there.
set -euo pipefail
cd "$(dirname "$0")/../.."

# Hold the README's ports (those that are free) with listeners that never answer.
exec 3< <(exec python3 -c '
import signal, socket, sys
held = []
for port in sys.argv[1:]:
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", int(port)))
    except OSError:
        continue
    s.listen()
    held.append(s)
    print(port, end=" ")
print(flush=True)
signal.pause()
' 8080 8081 8090)
holder=$!
trap 'kill "$holder" 2>/dev/null || true' EXIT
read -r -t 10 held <&3 || true
echo "readme.sh: the README's ports held while its blocks run on free ones: ${held:-none (all in use already)}" >&2

PAGES_EXACT_OUTPUTS=1 bash Tests/e2e/lib/run-pages.sh README.md
