#!/usr/bin/env bash
# Checks that a tool built for release runs where no Swift is installed: it needs no Swift
# library (the runtime and Foundation are linked in), looks for libraries nowhere but beside
# itself and the system's folders, and prints VERSION with an empty environment.
# Usage: scripts/check-release-binary.sh BINARY VERSION
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: scripts/check-release-binary.sh BINARY VERSION" >&2; exit 64; }
binary=$1
version=$2
name=$(basename "$binary")
needed=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
swift_libraries=$(printf '%s\n' "$needed" | grep -E '^lib(swift|Foundation|FoundationEssentials|FoundationInternationalization|_FoundationICU|dispatch|BlocksRuntime)' || true)
if [ -n "$swift_libraries" ]; then
    echo "release: $name needs Swift's libraries: $(echo $swift_libraries)" >&2
    exit 1
fi
runpath=$(readelf -d "$binary" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p;s/.*(RPATH).*\[\(.*\)\]/\1/p')
if [ -n "$runpath" ] && [ "$runpath" != '$ORIGIN' ]; then
    echo "release: $name looks for libraries in $runpath" >&2
    exit 1
fi
printed=$(env -i "$binary" --version)
case "$printed" in
*"$version"*) ;;
*)
    echo "release: $name --version printed '$printed', not $version" >&2
    exit 1
    ;;
esac
echo "release: $name runs without Swift ($(echo $needed))" >&2
