#!/usr/bin/env bash
# Builds one of petkit's tools as `make serve` runs petmock and as a release ships it, and prints
# the binary's path: release, the Swift runtime and Foundation linked statically (only what the
# tool uses is linked and loaded, and it runs where no Swift is installed) and, on Linux, linked
# by the toolchain's lld with relative relocations packed (DT_RELR, which the C library reads
# from glibc 2.36), so that starting the tool does not read and apply 85,000 of them.
# docs/benchmarks.md "petmock's memory" has the figures.
# Without run-time exclusivity checks (-enforce-exclusivity=unchecked): they were 7 % of the
# instructions of a proxied request, on the event loop's and connections' own properties. The
# debug build that `make test` and the sanitizer runs use keeps every check, so an overlapping
# access still fails there; docs/benchmarks.md "The proxy stub" has the figures.
# Usage: scripts/build-tool.sh TOOL [swift build flags]   (SWIFT=path to swift; build output on stderr)
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: scripts/build-tool.sh TOOL [swift build flags]" >&2; exit 64; }
tool=$1
shift
swift="${SWIFT:-swift}"
flags=(-c release --product "$tool" --static-swift-stdlib -Xswiftc -enforce-exclusivity=unchecked)
if [ "$(uname -s)" = Linux ]; then
    toolchain="$(dirname "$(readlink -f "$(command -v "$swift")")")"
    if [ -x "$toolchain/ld.lld" ]; then
        flags+=(-Xswiftc -use-ld=lld)
        glibc="$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')"
        if [ -n "$glibc" ] && printf '2.36\n%s\n' "$glibc" | sort -V -C; then
            flags+=(-Xlinker -z -Xlinker pack-relative-relocs)
        fi
    fi
fi
"$swift" build "${flags[@]}" "$@" >&2
echo "$("$swift" build "${flags[@]}" "$@" --show-bin-path)/$tool"
