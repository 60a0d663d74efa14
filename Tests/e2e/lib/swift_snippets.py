"""Turns every Swift block of README.md and docs/*.md into an executable target of a package
outside the repository (Tests/e2e/examples.sh's fresh package, which depends on petkit's
products and on Examples/RepoBrowser's), so that a snippet that no longer compiles against the
API fails the suite, with the compiler's error at the page's own line (`#sourceLocation`).

`python3 swift_snippets.py ROOT PACKAGE` writes PACKAGE/Sources/snippet_<page>_<line>/main.swift
(and an empty Stubs/ resource, so `Bundle.module` exists) for each block and prints the targets'
Swift declarations, one per line, for the package's manifest. Each snippet is compiled as it
stands, with Foundation (and FoundationNetworking on Linux) imported. A marker, an HTML comment
on the line before the fence (indented as the fence is), changes that:

- `<!-- swift-check: context: NAME -->` puts Tests/e2e/snippets/NAME.swift first: the imports and
  declarations the snippet takes for granted (the app's models, its table view).
- `<!-- swift-check: skip: REASON -->` leaves the block out and prints why (to stderr).

A Swift block with neither compiles alone. The snippet's and the context's `import` lines are
put first; the rest keeps its lines.
"""

import os
import re
import sys

FENCE = re.compile(r"^( *)```swift\n(.*?)^\1```\n", re.S | re.M)
MARK = re.compile(r"^ *<!-- swift-check: (skip|context): (.*?) -->\n$")
IMPORT = re.compile(r"^\s*(@testable |@_exported )?import \w+")
PRODUCTS = [
    "URLSessionStubs", "StubServerKit", "LoopbackStubs", "EndpointKit", "EndpointCore", "HTTPClient", "ContractModel",
    "ContractKit", "ContractCLI", "MockCLI", "PetModels", "PetClient", "PetAppContract",
]


def pages(root):
    names = ["README.md"] + sorted("docs/" + name for name in os.listdir(os.path.join(root, "docs")) if name.endswith(".md"))
    return names


def main():
    root, package = sys.argv[1], sys.argv[2]
    declarations = []
    for page in pages(root):
        text = open(os.path.join(root, page), encoding="utf-8").read()
        for match in FENCE.finditer(text):
            before = text[: match.start()]
            previous = before[before.rstrip("\n").rfind("\n") + 1 :] if before.endswith("\n") else ""
            line = before.count("\n") + 1
            marker = MARK.match(previous)
            context = ""
            if marker and marker.group(1) == "skip":
                print(f"swift-check: {page}:{line}: skipped: {marker.group(2)}", file=sys.stderr)
                continue
            if marker:
                path = os.path.join(root, "Tests/e2e/snippets", marker.group(2) + ".swift")
                if not os.path.exists(path):
                    sys.exit(f"swift-check: {page}:{line}: no context file {path}")
                context = open(path, encoding="utf-8").read()
            indent = len(match.group(1))
            body = [l[indent:] if l[:indent].strip() == "" else l for l in match.group(2).split("\n")]
            context_lines = context.split("\n")
            imports = ["import Foundation", "#if canImport(FoundationNetworking)", "import FoundationNetworking", "#endif"]
            imports += [l.strip() for l in context_lines + body if IMPORT.match(l)]
            context_rest = [l for l in context_lines if not IMPORT.match(l)]
            slug = re.sub(r"\W", "_", page.replace(".md", "")).lower()
            name = f"snippet_{slug}_{line}"
            source = os.path.join(package, "Sources", name)
            os.makedirs(os.path.join(source, "Stubs"), exist_ok=True)
            open(os.path.join(source, "Stubs", "README"), "w").write("A snippet's Bundle.module resource.\n")
            with open(os.path.join(source, "main.swift"), "w", encoding="utf-8") as out:
                out.write("\n".join(dict.fromkeys(imports)) + "\n")
                out.write("\n".join(context_rest) + "\n")
                out.write(f'#sourceLocation(file: "{page}", line: {line + 1})\n')
                out.write("\n".join("" if IMPORT.match(l) else l for l in body) + "\n")
                out.write("#sourceLocation()\n")
            dependencies = ", ".join(f'.product(name: "{p}", package: "petkit")' for p in PRODUCTS)
            dependencies += ', .product(name: "RepoBrowserAPI", package: "RepoBrowser")'
            dependencies += ', .product(name: "RepoBrowserContract", package: "RepoBrowser")'
            declarations.append(
                f'.executableTarget(name: "{name}", dependencies: [{dependencies}], resources: [.copy("Stubs")]),'
            )
    if not declarations:
        sys.exit("swift-check: no Swift block found")
    print("\n".join(declarations))


main()
