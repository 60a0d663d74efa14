#!/usr/bin/env bash
# Fails when a Linux-only API appears in Swift or C sources outside a guard, so that the
# package keeps compiling on Darwin. Run by `make lint`; Tests/e2e/check-portability.sh tests it.
# Usage: scripts/check-portability.sh [PATH...]   (default: Sources)
#
# Flagged: epoll_*, inotify_*, eventfd, accept4, pipe2, bare MSG_NOSIGNAL, SOCK_NONBLOCK and
# SOCK_CLOEXEC (socket and accept4 flags), CLOCK_*_COARSE, posix_spawn*_np, and an
# `import Glibc` switch without its `import Darwin` branch.
# Guarded: inside a branch whose condition is Linux's (Swift `os(Linux)`, `canImport(Glibc)`;
# C `__linux__`, `__GLIBC__`, or `#ifdef` of the flagged macro itself), at any depth; the `_np`
# spawn calls may also sit in a Darwin branch (`__APPLE__`, `os(macOS)`, `canImport(Darwin)`).
# A negated condition (`#if !os(Linux)`, `#ifndef __linux__`) guards its `#else`. An `import
# Glibc` inside a branch that holds code besides imports (a Linux-only file) needs no Darwin
# branch. Comments and string literals are not read.
# Exit status: 0 clean, 1 findings (one `file:line: message` each on stderr), 2 could not run,
# 64 usage error.
set -euo pipefail

case "${1:-}" in
-h | --help)
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
-*)
    echo "check-portability: unknown option '$1'" >&2
    exit 64
    ;;
esac

[ $# -gt 0 ] || set -- Sources
for path in "$@"; do
    [ -e "$path" ] || { echo "check-portability: no such file or folder '$path'" >&2; exit 2; }
done

files=()
while IFS= read -r -d '' file; do files+=("$file"); done < <(
    find "$@" -type d -name .build -prune -o -type f \( -name '*.swift' -o -name '*.c' -o -name '*.h' \) -print0 |
        sort -z
)
[ ${#files[@]} -gt 0 ] || exit 0

awk '
function fail(message) {
    printf "%s:%d: %s\n", FILENAME, FNR, message > "/dev/stderr"
    findings++
}
# 1 when the condition holds only on Linux (a conjunction naming Linux or glibc, not negated),
# -1 when it is the negation of one, else 0.
function linuxCondition(condition) {
    # `LINUX && (...)` holds only on Linux whatever the rest says.
    if (condition ~ /^(os\(Linux\)|canImport\(Glibc\)|defined\(?__linux__\)?|defined\(?__GLIBC__\)?)&&/) return 1
    if (condition ~ /\|\|/) return 0
    if (condition ~ /^!(os\(Linux\)|canImport\(Glibc\)|defined\(?__linux__\)?|defined\(?__GLIBC__\)?)$/) return -1
    if (condition ~ /!(os\(Linux\)|canImport\(Glibc\)|defined)/) return 0
    if (condition ~ /os\(Linux\)|canImport\(Glibc\)|__linux__|__GLIBC__/) return 1
    if (condition ~ /^(defined\(?)?(MSG_NOSIGNAL|SOCK_NONBLOCK|SOCK_CLOEXEC|CLOCK_[A-Z_]+_COARSE|EFD_[A-Z]+)\)?$/) return 1
    return 0
}
function darwinCondition(condition) {
    if (condition ~ /\|\||!/) return 0
    return condition ~ /os\(macOS\)|canImport\(Darwin\)|__APPLE__/
}
function enter(condition, negatedDirective,    kind) {
    depth++
    kind = linuxCondition(condition)
    if (negatedDirective) kind = -kind
    linux[depth] = kind == 1
    negated[depth] = kind == -1
    darwin[depth] = !negatedDirective && darwinCondition(condition)
    onlyImports[depth] = 1
    darwinImport[depth] = 0
    glibcImports[depth] = ""
    branch[depth] = 1
}
function nextBranch(condition, isElse) {
    if (depth == 0) { fail("#else or #elseif without #if"); return }
    if (branch[depth] == 1) closeFirstBranch()
    branch[depth]++
    if (isElse) {
        linux[depth] = negated[depth]
        darwin[depth] = 0
    } else {
        linux[depth] = linuxCondition(condition) == 1
        darwin[depth] = darwinCondition(condition)
    }
    negated[depth] = 0
}
# An import switch (a first branch of imports only) keeps its `import Glibc` lines until #endif,
# which checks for the Darwin branch; a Linux-only region of code needs none.
function closeFirstBranch() {
    if (!onlyImports[depth]) glibcImports[depth] = ""
}
function leave(    count, lines, i) {
    if (depth == 0) { fail("#endif without #if"); return }
    if (branch[depth] == 1) closeFirstBranch()
    if (glibcImports[depth] != "" && !darwinImport[depth]) {
        count = split(substr(glibcImports[depth], 2), lines, " ")
        for (i = 1; i <= count; i++) {
            printf "%s:%d: %s\n", FILENAME, lines[i], "\047import Glibc\047 without an \047#elseif canImport(Darwin)\047 branch importing Darwin" > "/dev/stderr"
            findings++
        }
    }
    depth--
}
function guardedFor(needsLinuxOnly,    i) {
    for (i = 1; i <= depth; i++) {
        if (linux[i]) return 1
        if (!needsLinuxOnly && darwin[i]) return 1
    }
    return 0
}
function check(line, pattern, name, needsLinuxOnly,    found) {
    if (!match(line, pattern)) return
    found = substr(line, RSTART, RLENGTH)
    sub(/^[^A-Za-z_]/, "", found)
    sub(/[^A-Za-z0-9_]$/, "", found)
    if (guardedFor(needsLinuxOnly)) return
    fail("Linux-only API \047" found "\047 (" name ") outside a Linux guard: \047os(Linux)\047, \047canImport(Glibc)\047, \047__linux__\047 or \047__GLIBC__\047")
}
FNR == 1 {
    if (depth > 0) {
        printf "%s: %d #if without #endif at the end\n", previous, depth > "/dev/stderr"
        findings++
    }
    depth = 0
    inBlockComment = 0
    previous = FILENAME
}
{
    line = $0
    if (inBlockComment) {
        if (line !~ /\*\//) next
        sub(/^.*\*\//, "", line)
        inBlockComment = 0
    }
    gsub(/\/\*([^*]|\*[^\/])*\*\//, "", line)
    if (line ~ /\/\*/) {
        sub(/\/\*.*$/, "", line)
        inBlockComment = 1
    }
    sub(/^[ \t]*\/\/.*$/, "", line)
    sub(/[ \t]\/\/.*$/, "", line)
    directive = line
    sub(/^[ \t]+/, "", directive)
    sub(/[ \t]+$/, "", directive)
    if (directive ~ /^#[ \t]*(if|ifdef|ifndef|elseif|elif|else|endif)([ \t(!]|$)/) {
        keyword = directive
        sub(/^#[ \t]*/, "", keyword)
        condition = keyword
        sub(/[ \t(!].*$/, "", keyword)
        sub(/^[a-z]+[ \t]*/, "", condition)
        gsub(/[ \t]/, "", condition)
        if (keyword == "if") enter(condition, 0)
        else if (keyword == "ifdef") enter(condition, 0)
        else if (keyword == "ifndef") enter(condition, 1)
        else if (keyword == "elseif" || keyword == "elif") nextBranch(condition, 0)
        else if (keyword == "else") nextBranch("", 1)
        else if (keyword == "endif") leave()
        next
    }
    if (directive == "") next
    isImport = directive ~ /^(@[A-Za-z_]+[ \t]+)*(public[ \t]+|package[ \t]+|internal[ \t]+)?import[ \t]/
    if (!isImport && depth > 0 && branch[depth] == 1) onlyImports[depth] = 0
    if (directive ~ /import[ \t]+Darwin$/ && depth > 0 && branch[depth] > 1) darwinImport[depth] = 1
    if (directive ~ /import[ \t]+Glibc$/) {
        if (depth == 0 || !guardedFor(1)) {
            fail("\047import Glibc\047 outside a \047#if canImport(Glibc)\047 switch with its Darwin branch")
        } else if (branch[depth] == 1 && linux[depth]) {
            glibcImports[depth] = glibcImports[depth] " " FNR
        }
    }
    # What a string says is no call (the name of a failed call in an error, say).
    gsub(/"([^"\\]|\\.)*"/, "\"\"", line)
    check(line, "(^|[^A-Za-z0-9_])epoll_[a-z0-9_]+", "epoll", 1)
    check(line, "(^|[^A-Za-z0-9_])inotify_[a-z0-9_]+", "inotify", 1)
    check(line, "(^|[^A-Za-z0-9_])eventfd([^A-Za-z0-9_]|$)", "eventfd", 1)
    check(line, "(^|[^A-Za-z0-9_])accept4([^A-Za-z0-9_]|$)", "accept4", 1)
    check(line, "(^|[^A-Za-z0-9_])pipe2([^A-Za-z0-9_]|$)", "pipe2", 1)
    check(line, "(^|[^A-Za-z0-9_])MSG_NOSIGNAL([^A-Za-z0-9_]|$)", "a send flag", 1)
    check(line, "(^|[^A-Za-z0-9_])SOCK_(NONBLOCK|CLOEXEC)([^A-Za-z0-9_]|$)", "a socket flag", 1)
    check(line, "(^|[^A-Za-z0-9_])CLOCK_[A-Z_]+_COARSE", "a coarse clock", 1)
    check(line, "(^|[^A-Za-z0-9_])posix_spawn[a-z_]*_np([^A-Za-z0-9_]|$)", "a non-portable spawn call", 0)
}
END {
    if (depth > 0) {
        printf "%s: %d #if without #endif at the end\n", previous, depth > "/dev/stderr"
        findings++
    }
    exit findings > 0 ? 1 : 0
}
' "${files[@]}"
