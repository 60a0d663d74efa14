import HTTPClient
import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import JSONKit
import MockEngine
import PetAPIServer
import Platform
import StubServerKit
import TestSupport

/// The reference Pet API in process, on SQLite in a fresh folder: the real upstream.
final class PetAPIUpstream: Sendable {
    let server: LiveHTTPServer
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory(prefix: "petapi-upstream")
        let store = try PetStore(path: folder.file("petapi.sqlite"))
        server = try LiveHTTPServer(handler: PetAPIHandler(store: store))
    }

    /// `http://127.0.0.1:PORT` (the API lives under `/api`).
    var baseURL: String { server.baseURL }

    func stop() {
        server.stop()
        folder.remove()
    }
}

/// An upstream answering every request with the closure.
func startUpstream(_ handler: @escaping @Sendable (HTTPServerRequest) -> HTTPReply) throws -> LiveHTTPServer {
    try LiveHTTPServer(handler)
}

/// A stub server on a free port over a stub folder (or none), started.
func startStubServer(
    stubs: String?, configure: (inout StubServerConfiguration) -> Void = { _ in }
) throws -> StubServer {
    var configuration = StubServerConfiguration(port: 0, eventLoopCount: 1)
    configure(&configuration)
    let server = try StubServer(stubsDirectory: stubs, mappings: [], configuration: configuration)
    try server.start()
    return server
}

/// A real libcurl client (it asks for gzip and decodes it, as apps do).
struct TestClient {
    let transport = CurlTransport(configuration: CurlTransportConfiguration(totalTimeout: .seconds(10)))

    func get(_ url: String, headers: HTTPHeaders = HTTPHeaders()) async throws -> HTTPClientResponse {
        try await transport.send(HTTPClientRequest(url: url, headers: headers))
    }

    func send(
        _ method: HTTPMethod, _ url: String, json: String, headers: HTTPHeaders = HTTPHeaders()
    )
        async throws -> HTTPClientResponse
    {
        var all = headers
        all.add(name: "Content-Type", value: "application/json")
        return try await transport.send(
            HTTPClientRequest(method: method, url: url, headers: all, body: Array(json.utf8)))
    }

    /// The error the request ends in, or nil when a response arrived.
    func failure(_ url: String) async -> HTTPClientError? {
        do {
            _ = try await transport.send(HTTPClientRequest(url: url))
            return nil
        } catch {
            return error
        }
    }
}

/// The header fields a stub is expected to reproduce: everything but what describes one
/// connection or one transfer (framing, coding, date) and petmock's own markers.
func keptHeaders(_ headers: HTTPHeaders) -> [String] {
    let ignored = [
        "date", "content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive",
        "matched-stub-id", "matched-stub-name",
    ]
    return headers.fields.filter { !ignored.contains($0.name.lowercased()) }.map {
        "\($0.name.lowercased()): \($0.value)"
    }
}

/// A file's text.
func readText(_ path: String) throws -> String {
    String(decoding: try FileSystem.read(path), as: UTF8.self)
}

/// Writes a file (and its folder).
func writeText(_ path: String, _ text: String) throws {
    try FileSystem.createDirectory(FileSystem.directory(of: path))
    try FileSystem.writeAtomically(Array(text.utf8), to: path)
}

/// The mapping files of a stub folder, by name.
func mappingFileNames(_ root: String) throws -> [String] {
    try FileSystem.names(in: root + "/mappings").filter { $0.hasSuffix(".json") }
}
