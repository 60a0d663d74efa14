#!/usr/bin/env bash
# scripts/check-portability.sh on files written for it: it names each Linux-only call outside
# a guard (file:line and the API) and exits 1; it passes guarded code, comments and strings.
set -euo pipefail
cd "$(dirname "$0")/../.."

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/good" "$work/bad"

cat >"$work/good/Switch.swift" <<'EOF'
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// epoll_wait and accept4 in a comment are not calls.
let name = "accept4 failed"
#if os(Linux)
let poller = epoll_create1(0)
#if arch(x86_64)
let watcher = inotify_init1(0)
#endif
#endif
#if !os(Linux)
let flags: Int32 = 0
#else
let channel = eventfd(0, 0)
#endif
#if canImport(Glibc)
let clock = CLOCK_REALTIME_COARSE
#elseif canImport(Darwin)
let clock = CLOCK_REALTIME
#endif
EOF
cat >"$work/good/LinuxOnly.swift" <<'EOF'
#if os(Linux)
import CSystem
import Glibc

/// A whole file for Linux: its imports need no Darwin branch.
let descriptor = eventfd(0, 0)
#endif
EOF
cat >"$work/good/system.c" <<'EOF'
#define _GNU_SOURCE
#include <spawn.h>
#ifdef __linux__
#include <sys/epoll.h>
int open_socket(void) { return socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0); }
#endif
#ifdef MSG_NOSIGNAL
static const int flags = MSG_NOSIGNAL;
#endif
/* posix_spawn_file_actions_addclosefrom_np
   in a block comment */
int chdir_action(posix_spawn_file_actions_t *actions) {
#if defined(__APPLE__)
    return posix_spawn_file_actions_addchdir_np(actions, "/");
#elif defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 29))
    return posix_spawn_file_actions_addchdir_np(actions, "/");
#else
    return 0;
#endif
}
#ifndef __linux__
int wake(void) { return 0; }
#else
int wake(void) { return eventfd(0, 0); }
#endif
EOF

cat >"$work/bad/Bare.swift" <<'EOF'
import Glibc

let poller = epoll_create1(0)
EOF
cat >"$work/bad/HalfSwitch.swift" <<'EOF'
#if canImport(Glibc)
import Glibc
#endif

#if os(Linux)
let channel = eventfd(0, 0)
#else
let descriptor = accept4(3, nil, nil, 0)
#endif
#if canImport(Darwin)
let clock = CLOCK_MONOTONIC_COARSE
#endif
EOF
cat >"$work/bad/system.c" <<'EOF'
#include <sys/socket.h>
int open_socket(void) { return socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0); }
int send_flags(void) { return MSG_NOSIGNAL; }
#ifndef __linux__
int watch(void) { return inotify_init1(0); }
#endif
int close_from(posix_spawn_file_actions_t *actions) {
    return posix_spawn_file_actions_addclosefrom_np(actions, 3);
}
EOF

check() { scripts/check-portability.sh "$@"; }

if ! output=$(check "$work/good" 2>&1); then
    echo "check-portability: guarded code was flagged:" >&2
    echo "$output" >&2
    exit 1
fi
[ -z "$output" ] || { echo "check-portability: output for clean files: $output" >&2; exit 1; }

status=0
output=$(check "$work/bad" 2>&1) || status=$?
[ "$status" -eq 1 ] || { echo "check-portability: exit $status for bad files, expected 1" >&2; exit 1; }
expected=(
    "$work/bad/Bare.swift:1: 'import Glibc' outside"
    "$work/bad/Bare.swift:3: Linux-only API 'epoll_create1'"
    "$work/bad/HalfSwitch.swift:2: 'import Glibc' without an '#elseif canImport(Darwin)' branch"
    "$work/bad/HalfSwitch.swift:8: Linux-only API 'accept4'"
    "$work/bad/HalfSwitch.swift:11: Linux-only API 'CLOCK_MONOTONIC_COARSE'"
    "$work/bad/system.c:2: Linux-only API 'SOCK_NONBLOCK'"
    "$work/bad/system.c:3: Linux-only API 'MSG_NOSIGNAL'"
    "$work/bad/system.c:5: Linux-only API 'inotify_init1'"
    "$work/bad/system.c:8: Linux-only API 'posix_spawn_file_actions_addclosefrom_np'"
)
for finding in "${expected[@]}"; do
    if ! grep -qF -- "$finding" <<<"$output"; then
        echo "check-portability: missing finding '$finding' in:" >&2
        echo "$output" >&2
        exit 1
    fi
done
count=$(grep -c . <<<"$output")
[ "$count" -eq "${#expected[@]}" ] || {
    echo "check-portability: $count findings, expected ${#expected[@]}:" >&2
    echo "$output" >&2
    exit 1
}

status=0
check --verbose >/dev/null 2>&1 || status=$?
[ "$status" -eq 64 ] || { echo "check-portability: exit $status for an unknown option, expected 64" >&2; exit 1; }
status=0
check "$work/missing" >/dev/null 2>&1 || status=$?
[ "$status" -eq 2 ] || { echo "check-portability: exit $status for a missing folder, expected 2" >&2; exit 1; }

check Sources
echo "check-portability: ${#expected[@]} findings in bad files, none in guarded ones, Sources clean"
