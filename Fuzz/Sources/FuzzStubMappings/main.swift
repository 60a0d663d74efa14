import FuzzDriver
import FuzzSupport
import HTTPCore
import JSONKit
import MockEngine
import StubFormat
import StubServerKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A stub root made once per process: the fuzzer's input becomes `mappings/fuzz.json`, next to
/// body files inside `__files/` and, outside it, a file that a `bodyFileName` must never reach
/// (directly, by `..`, or through the `__files/outside` symbolic link).
let root = FuzzStubRoot.make(
    "stubs",
    files: [
        "__files/pets.json": "[{\"firstName\": \"Rex\", \"vetId\": 1}]", "__files/nested/page.html": "<html>502</html>",
    ])

/// Requests every loaded stub is measured against (near misses run every matcher).
let probes: [LoggedRequest] = [
    LoggedRequest(method: .get, url: "/api/pets?x=1&x=2", headers: ["Accept": "application/json"]),
    LoggedRequest(
        method: .post, url: "/api/vets/7", headers: ["Content-Type": "application/json", "X-Petmock-Variant": "slow"],
        body: Array(#"{"firstName": "Ann", "tags": [1, "a", null], "n": {"m": true}}"#.utf8)),
    LoggedRequest(
        method: .post, url: "/api/pets", headers: ["Content-Type": "application/xml"],
        body: Array(#"<p:pet xmlns:p="urn:pets" id="1"><name>Ann</name><!-- c --><tag>a</tag></p:pet>"#.utf8)),
]

/// The check libFuzzer runs on every input: loading a folder whose mapping file holds the
/// input never crashes or hangs; every problem names the file; every mapping that loads
/// survives the JSON the admin API returns and saves (it decodes again to the same JSON), and
/// is measured against probe requests without trouble.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStubMappings(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let file = root + "/mappings/fuzz.json"
    let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    precondition(descriptor >= 0, "cannot write \(file)")
    precondition(Glibc.write(descriptor, data, size) == size, "short write")
    close(descriptor)

    let server: StubServer
    do {
        server = try StubServer(stubsDirectory: root, configuration: StubServerConfiguration(journalCapacity: 8))
    } catch {
        preconditionFailure("a bad mapping file must be a load problem, not a failed load: \(error)")
    }
    for problem in server.loadProblems {
        precondition(problem.file == file, "problem without its file: \(problem)")
        _ = problem.description
    }
    for mapping in server.admin.mappings() {
        let json = mapping.json
        let again: StubMapping
        do {
            again = try StubMapping(json: json)
        } catch {
            preconditionFailure("a loaded mapping's JSON does not load again: \(error)\n\(json.serialized(.pretty))")
        }
        precondition(again.json == json, "mapping JSON changes on a second decode:\n\(json.serialized(.pretty))")
    }
    for probe in probes { _ = server.admin.nearMisses(for: probe) }
    _ = server.admin.variants()
    _ = server.admin.scenarios()
    return 0
}

exit(fuzz_driver_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzStubMappings))
