"""Runs the shell blocks of Markdown pages as written and compares the outputs they show.

`plan PAGE SCRIPT WORK` writes SCRIPT: PAGE's shell blocks, top to bottom, for one shell run
from the repository root, their output (stdout and stderr) kept in WORK/page.txt. `check PAGE
WORK` then compares what the page shows with what the commands printed. The markers, each an
HTML comment on the line before a fenced block:

- `<!-- readme.sh: skip: REASON -->` before a `sh` block: left out, the reason printed.
- `<!-- readme.sh: output -->` before any fenced block: the output of the `sh` block above it
  (what arrived while it ran, standard output and standard error as a terminal shows them,
  servers running in the background included). How it is compared depends on the mode:
  - exact (PAGES_EXACT_OUTPUTS=1, what Tests/e2e/readme.sh sets): the block is exactly what
    the commands printed, line for line, but for the lines the marker says it leaves out:
    `<!-- readme.sh: output; omit: /REGEX/ -->` drops every printed line REGEX matches (Python
    `re.search`, on the line as printed) before the comparison; `; omit: /REGEX/` may repeat,
    and each must leave out at least one line.
    A `...` line is no wildcard here: it must be printed as it is.
  - in order (the default, the pages of docs/): each non-empty line must appear in what that
    block printed, in order; other lines may come between (a line `...` marks where some are
    left out), and a line ending in `...` stands for any line that begins with what comes
    before the dots. `omit:` clauses drop printed lines here too.
- `<!-- readme.sh: transcript -->` before a `text` block of `$ COMMAND` lines, each followed by
  exactly what COMMAND prints. The commands run in the same shell, at that point of the page.

Both sides are masked first, and what varies from run to run compares equal: ports (after a
host: `127.0.0.1:<port>`), timings, UUIDs, dates, temporary paths, process ids. Trailing blank
lines are ignored.

`PAGES_PORTS="8080=41023 8081=41024 ..."` (run-pages.sh sets it) moves the servers a page
starts to those ports: in the commands (sh blocks and a transcript's `$` lines) each documented
port written after a host and colon, after `--port` or in a job spec (`%?8083`) becomes its
free port, so a page runs while something else listens on its documented ports. The outputs
need no change: their ports are masked.
"""

import json
import os
import re
import sys

MARK = re.compile(r"<!-- readme\.sh: (skip: (.*?)|output((?:; omit: /.*?/)*)|transcript) -->\n$")
OMIT = re.compile(r"; omit: /(.*?)/(?=;|$)")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.S | re.M)


def blocks(text):
    """Each fenced block with its language, body, marker (None, 'skip', 'output', 'transcript'),
    skip reason and line number."""
    found = []
    for match in FENCE.finditer(text):
        before = text[: match.start()]
        previous_line = before[before.rstrip("\n").rfind("\n") + 1 :] if before.endswith("\n") else ""
        marker = MARK.match(previous_line)
        kind, reason, omit = None, None, []
        if marker:
            kind = "skip" if marker.group(1).startswith("skip") else marker.group(1).split(";")[0]
            reason = marker.group(2)
            omit = OMIT.findall(marker.group(3) or "")
        line = before.count("\n") + 1
        found.append(
            {"lang": match.group(1), "body": match.group(2), "kind": kind, "reason": reason, "omit": omit, "line": line}
        )
    return found


def moved_ports():
    """The documented ports and the free ports they move to, from PAGES_PORTS."""
    pairs = os.environ.get("PAGES_PORTS", "").split()
    return dict(pair.split("=", 1) for pair in pairs)


def move_ports(command, ports):
    """COMMAND with each documented port, where it names a port, replaced by its free port."""
    for documented, free in ports.items():
        command = re.sub(
            r"((?:127\.0\.0\.1|localhost|\[::1\]|0\.0\.0\.0):|--port[ =]|%\?|\s:)" + documented + r"\b",
            lambda match: match.group(1) + free,
            command,
        )
    return command


def plan(page, script, work):
    text = open(page).read()
    out = [
        "set -eo pipefail",
        # Whatever a failing block leaves running is stopped with the shell.
        "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT",
        "exec 9>&2",
        "BASH_XTRACEFD=9",
        f": > {work}/page.txt",
        "set -x",
    ]
    checks = []
    units = []
    last_unit = None
    ports = moved_ports()
    exact = os.environ.get("PAGES_EXACT_OUTPUTS") == "1"

    def run(where, body):
        # Everything goes to one file, in time order (servers started in the background keep
        # writing there); a unit's output is what arrived while it ran.
        unit = len(units)
        units.append(where)
        out.append(f"echo '=== {where}' >&9")
        out.append(f"echo '{where}' > {work}/current")
        out.append(f"wc -c < {work}/page.txt > {work}/offset-{unit}")
        out.append("{")
        out.append(body)
        out.append(f"}} >> {work}/page.txt 2>&1")
        return unit

    for block in blocks(text):
        where = f"{page}:{block['line']}"
        if block["lang"] == "sh":
            if block["kind"] == "skip":
                print(f"{page}: skipping the block at line {block['line']}: {block['reason']}", file=sys.stderr)
                last_unit = None
                continue
            last_unit = run(where, move_ports(block["body"].rstrip("\n"), ports))
        elif block["kind"] == "output":
            if last_unit is None:
                raise SystemExit(f"{where}: an output block with no shell block above it")
            for pattern in block["omit"]:
                try:
                    re.compile(pattern)
                except re.error as error:
                    raise SystemExit(f"{where}: omit: /{pattern}/ is no regular expression: {error}")
            checks.append(
                {
                    "mode": "exact" if exact else "lines",
                    "where": where,
                    "unit": last_unit,
                    "expected": block["body"],
                    "omit": block["omit"],
                }
            )
        elif block["kind"] == "transcript":
            command, expected = None, []
            pieces = []
            for line in block["body"].split("\n"):
                if line.startswith("$ "):
                    if command is not None:
                        pieces.append((command, expected))
                    command, expected = line[2:], []
                elif command is not None:
                    expected.append(line)
            if command is not None:
                pieces.append((command, expected))
            for command, expected in pieces:
                unit = run(f"{where}: $ {command}", move_ports(command, ports))
                checks.append(
                    {"mode": "exact", "where": f"{where}: $ {command}", "unit": unit, "expected": "\n".join(expected)}
                )
    out.append("set +x")
    out.append(f"wc -c < {work}/page.txt > {work}/offset-{len(units)}")
    # Nothing a block started may still run: the page stops what it starts.
    out.append(
        'if [ -n "$(jobs -r -p)" ]; then echo "still running after the last block of '
        + page
        + ':" >&2; jobs -r >&2; kill $(jobs -r -p); exit 1; fi'
    )
    open(script, "w").write("\n".join(out) + "\n")
    json.dump(checks, open(f"{work}/checks.json", "w"))
    print(f"{page}: running {len(units)} blocks and commands, checking {len(checks)} outputs", file=sys.stderr)


def unit_output(work, unit):
    """What arrived in the page's output while the unit ran (to the next unit's start)."""
    data = open(f"{work}/page.txt", "rb").read()
    start = int(open(f"{work}/offset-{unit}").read())
    try:
        end = int(open(f"{work}/offset-{unit + 1}").read())
    except FileNotFoundError:
        end = len(data)
    return data[start:end].decode("utf-8", errors="replace")


VOLATILE = [
    (re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"), "<id>"),
    (re.compile(r"\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?"), "<date>"),
    (re.compile(r"\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT"), "<date>"),
    (re.compile(r"((?:127\.0\.0\.1|localhost|\[::1\]|0\.0\.0\.0)):\d+"), r"\1:<port>"),
    (re.compile(r"\b\d+(\.\d+)? ?(ms|µs|us|s)\b"), "<time>"),
    (re.compile(r"/tmp/[\w.-]+"), "<tmp>"),
    (re.compile(r"\b(pid|process) \d+"), r"\1 <n>"),
]


def mask(line):
    for pattern, replacement in VOLATILE:
        line = pattern.sub(replacement, line)
    return line.rstrip()


def check(page):
    work = sys.argv[3]
    failures = 0
    for item in json.load(open(f"{work}/checks.json")):
        try:
            omit = [re.compile(pattern) for pattern in item.get("omit", [])]
            printed = unit_output(work, item["unit"]).split("\n")
            actual = [mask(line) for line in printed if not any(pattern.search(line) for pattern in omit)]
            for pattern in omit:
                if not any(pattern.search(line) for line in printed):
                    failures += 1
                    print(f"{item['where']}: omit: /{pattern.pattern}/ leaves out no printed line", file=sys.stderr)
        except FileNotFoundError:
            print(f"{item['where']}: its block did not run", file=sys.stderr)
            failures += 1
            continue
        expected = [mask(line) for line in item["expected"].split("\n")]
        if item["mode"] == "exact":
            while expected and not expected[-1]:
                expected.pop()
            while actual and not actual[-1]:
                actual.pop()
            if expected != actual:
                failures += 1
                print(f"{item['where']}: the page shows other output than the commands print", file=sys.stderr)
                import difflib

                for line in difflib.unified_diff(expected, actual, "shown", "printed", lineterm="", n=1):
                    print("  " + line, file=sys.stderr)
            continue
        position = 0
        for line in expected:
            if not line.strip() or line.strip() == "...":
                continue
            prefix = line[:-3] if line.endswith("...") else None
            while position < len(actual) and not (
                actual[position] == line or (prefix is not None and actual[position].startswith(prefix))
            ):
                position += 1
            if position == len(actual):
                failures += 1
                print(f"{item['where']}: the output shown has a line the block did not print (in this order):", file=sys.stderr)
                print(f"  shown:   {line}", file=sys.stderr)
                print("  printed:", file=sys.stderr)
                for printed in actual[-40:]:
                    print(f"    {printed}", file=sys.stderr)
                break
            position += 1
    if failures:
        raise SystemExit(f"{page}: {failures} output(s) differ from what the commands print")
    print(f"{page}: every output shown matches", file=sys.stderr)


if __name__ == "__main__":
    if sys.argv[1] == "plan":
        plan(sys.argv[2], sys.argv[3], sys.argv[4])
    elif sys.argv[1] == "check":
        check(sys.argv[2])
    else:
        raise SystemExit("usage: markdown_blocks.py plan PAGE SCRIPT WORK | check PAGE WORK")
