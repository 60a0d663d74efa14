#!/usr/bin/env bash
# petkit as another team adopts it. Examples/RepoBrowser (a package of its own, depending on
# petkit by path) builds, generates its contract with its own snake_case models, verifies a
# healthy and a drifted API served by petmock from its own stubs, and runs its tests (Swift
# Testing and XCTest). Then a fresh package made here, outside the repository, depends on
# petkit, imports its libraries, runs the petcontract product, and compiles every Swift block
# of the README and docs (Tests/e2e/lib/swift_snippets.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
example="$root/Examples/RepoBrowser"

work="$(mktemp -d)"
server=""
stop_server() {
    if [ -n "$server" ]; then
        kill "$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
        server=""
    fi
}
cleanup() {
    local status=$?
    stop_server
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT

echo "-- Examples/RepoBrowser: build (with petkit's petmock and petcontract products)" >&2
start=$(date +%s)
swift build --package-path "$example" >&2
swift build --package-path "$example" --product petmock >&2
echo "examples: built in $(( $(date +%s) - start )) s" >&2
bin="$(swift build --package-path "$example" --show-bin-path)"

echo "-- the dependency's executable product runs" >&2
(cd "$example" && swift run -q petcontract --help) | grep -q "USAGE: petcontract <subcommand>"

echo "-- its own contract, from its own models, is the checked-in one" >&2
(cd "$example" && "$bin/repo-contract" generate -o -) | cmp - "$example/Contracts/repo-browser.openapi.json"

# Starts petmock on a free port with the example's stubs; sets $base from its first line.
serve() {
    mkfifo "$work/out.$1"
    "$bin/petmock" serve --stubs "$example/Stubs" --port 0 "${@:2}" >"$work/out.$1" 2>&1 &
    server=$!
    exec 3<"$work/out.$1"
    base=""
    while IFS= read -r -t 30 line <&3; do
        case "$line" in *"serving "*" on http://"*) base="${line##* on }"; base="${base%% *}"; break ;; esac
    done
    [ -n "$base" ] || { echo "petmock did not report its address" >&2; exit 1; }
}

echo "-- a healthy API passes" >&2
serve healthy
(cd "$example" && "$bin/repo-contract" verify --live "$base/api" >"$work/healthy.txt") || {
    cat "$work/healthy.txt" >&2; echo "expected exit 0 against the healthy stubs" >&2; exit 1; }
grep -q "2 operations checked" "$work/healthy.txt"
stop_server

echo "-- a drifted API fails, naming the Swift properties" >&2
serve drifted --variant stars-renamed
set +e
(cd "$example" && "$bin/repo-contract" verify --live "$base/api" >"$work/drifted.txt")
status=$?
set -e
stop_server
[ "$status" -eq 1 ] || { cat "$work/drifted.txt" >&2; echo "expected exit 1, got $status" >&2; exit 1; }
grep -q "swift: Repository.stargazersCount: Int" "$work/drifted.txt"
grep -q "\[response-property-probably-renamed\]" "$work/drifted.txt"
grep -q "swift: Repository.createdAt: Date" "$work/drifted.txt"

echo "-- its tests: Swift Testing and XCTest, with StubServer in process" >&2
swift test --package-path "$example" 2>&1 | tee "$work/tests.txt" | tail -3 >&2
grep -q "Test run with .* tests .* passed" "$work/tests.txt"
grep -q "Executed 2 tests, with 0 failures" "$work/tests.txt"

echo "-- a fresh package outside the repository" >&2
mkdir -p "$work/fresh/Sources/fresh"
# Every Swift block of the README and docs, each an executable target of this package, compiled
# against the products (Tests/e2e/lib/swift_snippets.py; an error names the page and line).
snippets="$(python3 Tests/e2e/lib/swift_snippets.py "$root" "$work/fresh")"
cat >"$work/fresh/Package.swift" <<SWIFT
// swift-tools-version:6.2
import PackageDescription
let package = Package(
    name: "fresh",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "petkit", path: "$root"), .package(name: "RepoBrowser", path: "$example")],
    targets: [
        .executableTarget(name: "fresh", dependencies: [
            .product(name: "ContractKit", package: "petkit"), .product(name: "StubServerKit", package: "petkit"),
            .product(name: "HTTPClient", package: "petkit"), .product(name: "ContractModel", package: "petkit"),
        ]),
$snippets
    ])
SWIFT
cat >"$work/fresh/Sources/fresh/main.swift" <<'SWIFT'
import ContractKit
import ContractModel
import HTTPClient
import StubServerKit

struct Item: Decodable, ContractDecodable {
    let itemName: String
    static let requiredKeys = ["itemName"]
}
struct Items: ContractEndpoint {
    typealias Response = [Item]
    static let operation = EndpointOperation(.get, "/items", operationId: "listItems")
}
let (contract, _) = try ConsumerContract(title: "Fresh", version: "1", endpoints: [Items.self]).make()
let server = try StubServer(mappings: [])
try server.start()
server.stop()
print(contract.operations.map(\.name), CurlTransportConfiguration().totalTimeout)
SWIFT
echo "-- the README's and docs' Swift blocks compile against the products" >&2
(cd "$work/fresh" && swift build -q) >&2
(cd "$work/fresh" && swift run -q fresh) | grep -q '\["GET /items"\]'
(cd "$work/fresh" && swift run -q petcontract --help) | grep -q "USAGE: petcontract <subcommand>"
echo "examples: ok" >&2
