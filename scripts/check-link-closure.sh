#!/usr/bin/env bash
# Fails when a module an app's test target may link reaches a library the iOS SDK does not ship.
# An iOS or macOS test target links Foundation, zlib, libxml2 and SQLite, but not libcurl or
# libyaml (on macOS those come only from Homebrew, behind flags Xcode does not pass), nor OpenSSL
# (not in the iOS SDK: HTTPS is the socket server's alone, through TLSKit), so the dependency
# closure of each module below must not contain CCurl, CYAML or COpenSSL.
# Usage: scripts/check-link-closure.sh   (exit 1 names the path; CHECK_LINK_MODULES="A B" checks others)
set -euo pipefail
cd "$(dirname "$0")/.."
read -r -a modules <<<"${CHECK_LINK_MODULES:-URLSessionStubs LoopbackStubs StubServerCore HTTPServerKit EndpointKit EndpointCore PetModels PetClient ContractModel MockEngine OpenAPIMock HTTPHandlerKit HTTPCore StubFormat APISchema}"
forbidden=(CCurl CYAML COpenSSL)
swift package describe --type json 2>/dev/null | python3 -c '
import json, sys
modules, forbidden = sys.argv[1].split(), set(sys.argv[2].split())
targets = {t["name"]: t.get("target_dependencies", []) for t in json.load(sys.stdin)["targets"]}
failed = False
for module in modules:
    if module not in targets:
        print(f"check-link-closure: no target named {module}", file=sys.stderr); sys.exit(2)
    # Breadth-first, remembering how each module was reached, to name the path to a bad one.
    via = {module: None}; queue = [module]
    while queue:
        current = queue.pop(0)
        for dependency in targets.get(current, []):
            if dependency not in via:
                via[dependency] = current; queue.append(dependency)
    for bad in sorted(forbidden & via.keys()):
        path = [bad]
        while via[path[-1]] is not None: path.append(via[path[-1]])
        print(f"check-link-closure: {module} links {bad} through " + " -> ".join(reversed(path)), file=sys.stderr)
        failed = True
sys.exit(1 if failed else 0)
' "${modules[*]}" "${forbidden[*]}"
echo "check-link-closure: ${modules[*]} link neither ${forbidden[*]}"
