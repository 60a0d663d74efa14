import APISchema
import ContractKit
import FuzzDriver
import HTTPCore
import HTTPHandlerKit
import MockEngine
import OpenAPIMock
import StubServerKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Corpus documents served as `petmock serve --openapi` serves them (the responder as the
/// engine's fallback, no stub, no socket): the items fixture (named examples, documented
/// headers, several media types), two OAI examples (3.0 and 3.1), and the styles fixture
/// (object parameters in every style, `allowReserved`, multipart and form bodies), which an
/// input whose first byte is 0xF0 or above is sent to.
let repository = String(#filePath.prefix(upTo: #filePath.range(of: "/Fuzz/Sources/")?.lowerBound ?? #filePath.endIndex))
let documents = [
    "Tests/OpenAPIMockTests/Fixtures/items.yaml", "Tests/ContractKitTests/Fixtures/oai/petstore-expanded.json",
    "Tests/ContractKitTests/Fixtures/oai/tictactoe.yaml", "Tests/OpenAPIMockTests/Fixtures/styles.openapi.json",
]
let allServers: [StubServer] = documents.map { file in
    do {
        var configuration = StubServerConfiguration(port: 0)
        configuration.fallback = OpenAPIResponder(contract: try OpenAPIReader().read(file: repository + "/" + file))
        return try StubServer(stubsDirectory: nil, mappings: [], configuration: configuration)
    } catch {
        preconditionFailure("\(file): \(error)")
    }
}
/// The first three documents, picked by a first byte below 0xF0 (its value modulo 3).
let servers = Array(allServers.prefix(3))
let styles = allServers[3]

/// The methods a request picks from by its first byte (any other byte string is a method too).
let methods: [HTTPMethod] = [.get, .head, .post, .put, .patch, .delete, .options, .trace]

/// A request from the input: line 1 the method (one byte picks a common one), line 2 the
/// target (a `/` put in front when missing), then `Name: value` header lines up to an empty
/// line, then the body. Bytes a request head cannot hold (control characters, spaces in the
/// target) are left out, as the server's parser would refuse them.
func request(_ bytes: [UInt8]) -> (server: StubServer, request: HTTPServerRequest) {
    var lines = bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 64, omittingEmptySubsequences: false)[...]
    let first = lines.popFirst() ?? []
    let byte = Int(first.first ?? 0)
    let server = byte >= 0xF0 ? styles : servers[byte % servers.count]
    let method: HTTPMethod =
        first.count <= 1
        ? methods[(byte >= 0xF0 ? byte - 0xF0 : byte / servers.count) % methods.count]
        : HTTPMethod(rawValue: token(first.dropFirst()).isEmpty ? "GET" : token(first.dropFirst()))
    var target = visible(lines.popFirst() ?? [], allowSpace: false)
    if !target.hasPrefix("/") { target = "/" + target }
    var headers: HTTPHeaders = ["Host": "127.0.0.1"]
    while let line = lines.popFirst(), !line.isEmpty {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
        let name = token(line[..<colon])
        guard !name.isEmpty else { continue }
        headers.add(name: name, value: String(visible(line[(colon + 1)...], allowSpace: true).trimmingASCIISpaces()))
    }
    let body = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
    return (server, HTTPServerRequest(method: method, target: target, headers: headers, body: body))
}

/// The bytes that may be in a header name or method (RFC 9110 §5.6.2's tchar).
func token(_ bytes: ArraySlice<UInt8>) -> String {
    let special = Set("!#$%&'*+-.^_`|~".utf8)
    return String(
        decoding: bytes.filter { isalnum(Int32($0)) != 0 && $0 < 0x80 || special.contains($0) }, as: UTF8.self)
}

/// Printable ASCII and anything past it (UTF-8), without control characters.
func visible(_ bytes: ArraySlice<UInt8>, allowSpace: Bool) -> String {
    String(decoding: bytes.filter { ($0 > 0x20 && $0 != 0x7F) || (allowSpace && $0 == 0x20) }, as: UTF8.self)
}

/// The check libFuzzer runs on every input: any request (method, path, query, headers,
/// `Prefer: code=`/`example=`, `X-Petmock-Variant`, body) gets an answer, never a crash, a
/// hang or an unbounded body: a status from 100 to 599 and a body of at most 1 MiB (a
/// generated body is bounded whatever the schema), and the same answer when asked again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOpenAPIServing(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size <= 16 << 10 else { return 0 }
    let (server, made) = request(Array(UnsafeBufferPointer(start: data, count: size)))
    let reply = server.reply(to: made)
    if reply.fault() != nil { return 0 }  // `X-Petmock-Variant: reset` asks for one.
    guard let response = reply.response() else { preconditionFailure("no answer to \(made.method) \(made.path)") }
    precondition((100..<600).contains(response.status.code), "status \(response.status.code)")
    precondition(response.body.count <= 1 << 20, "a body of \(response.body.count) bytes")
    guard let again = server.reply(to: made).response() else { preconditionFailure("no second answer") }
    precondition(again.status == response.status, "the same request answered \(response.status) then \(again.status)")
    return 0
}

exit(fuzz_driver_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzOpenAPIServing))
