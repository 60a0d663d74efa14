import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import JSONKit
import MockEngine
import StubFormat
import StubServerKit
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Paths of the repository and of the shared material beside it, from this file's location.
enum Fixtures {
    /// The repository root (three levels above this file's folder).
    static let repository: String = {
        var path = #filePath
        for _ in 0..<4 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path
    }()

    /// The repository's own `Stubs/`.
    static var stubs: String { repository + "/Stubs" }

    /// How many mappings `Stubs/` holds (the stubs evolve; tests compare with this).
    static var stubCount: Int { (try? StubLoader(root: stubs).load().mappings.count) ?? -1 }

    /// WireMock's own stub roots: `PETKIT_WIREMOCK_COMPAT` when set, else `../shared/compat/wiremock`
    /// beside the repository (or beside a folder above it, for git worktrees kept one level
    /// deeper); nil when they are not there, as in a plain clone.
    static var wireMockCompat: String? {
        var candidates: [String] = []
        if let chosen = getenv("PETKIT_WIREMOCK_COMPAT") {
            candidates = [String(cString: chosen)]
        } else {
            var base = repository
            for _ in 0..<3 {
                base = String(base[..<(base.lastIndex(of: "/") ?? base.startIndex)])
                candidates.append(base + "/shared/compat/wiremock")
            }
        }
        for candidate in candidates {
            var info = stat()
            if stat(candidate, &info) == 0 { return candidate }
        }
        return nil
    }

    /// Why the tests on WireMock's stub roots are skipped when they are absent.
    static let wireMockCompatAbsent: Comment =
        "WireMock's stub roots are absent (they are not part of the repository): put them at ../shared/compat/wiremock beside it or set PETKIT_WIREMOCK_COMPAT=DIR"
}

/// Why a fixture could not be set up, or a test could not go on.
struct FixtureError: Error, CustomStringConvertible {
    let description: String
}

/// A temporary stub folder (`mappings/` and `__files/` in a ``TemporaryDirectory``), removed
/// when released.
final class TemporaryStubs {
    let directory: TemporaryDirectory
    var root: String { directory.path }

    init() throws {
        directory = try TemporaryDirectory(prefix: "petmock-test")
        for folder in ["mappings", "__files"] { try directory.makeFolder(folder) }
    }

    deinit {
        directory.remove()
    }

    /// Writes a file under the root (its folder created), in place: open, write, close.
    func write(_ relativePath: String, _ text: String) {
        let path = root + "/" + relativePath
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        _ = system("mkdir -p '\(folder)'")
        let file = fopen(path, "w")
        _ = text.withCString { fputs($0, file) }
        fclose(file)
    }

    /// Deletes a file under the root.
    func remove(_ relativePath: String) {
        unlink(root + "/" + relativePath)
    }

    /// A mapping file's JSON for a simple GET stub.
    static func mapping(_ url: String, body: String, id: String? = nil, extra: String = "") -> String {
        let idField = id.map { "\"id\": \"\($0)\", " } ?? ""
        return """
            {\(idField)"request": {"method": "GET", "url": "\(url)"}, "response": {"status": 200, "body": "\(body)"}\(extra)}
            """
    }
}

/// The first event the stream yields that satisfies `predicate`, or an error after `timeout`.
func firstEvent(
    _ events: AsyncStream<StubServerEvent>, timeout: Duration = .seconds(10),
    where predicate: @escaping @Sendable (StubServerEvent) -> Bool
) async throws -> StubServerEvent {
    try await withThrowingTaskGroup(of: StubServerEvent?.self) { group in
        group.addTask {
            for await event in events where predicate(event) { return event }
            return nil
        }
        group.addTask {
            try await Task.sleep(for: timeout)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let event = first else {
            throw FixtureError(description: "no matching server event within \(timeout)")
        }
        return event
    }
}

/// Starts a server on a free port with one event loop; the caller stops it.
func startServer(
    stubs: String? = nil, mappings: [StubMapping] = [], configure: (inout StubServerConfiguration) -> Void = { _ in }
) throws -> StubServer {
    var configuration = StubServerConfiguration(port: 0, eventLoopCount: 1)
    configure(&configuration)
    let server = try StubServer(stubsDirectory: stubs, mappings: mappings, configuration: configuration)
    try server.start()
    return server
}

/// A server that is not started: tests ask it with `server.answer(...)` (its replies as
/// values, no socket). Wire behaviour (faults, delays, keep-alive) stays with ``startServer``.
func makeServer(
    stubs: String? = nil, mappings: [StubMapping] = [], configure: (inout StubServerConfiguration) -> Void = { _ in }
) throws -> StubServer {
    var configuration = StubServerConfiguration(port: 0, eventLoopCount: 1)
    configure(&configuration)
    return try StubServer(stubsDirectory: stubs, mappings: mappings, configuration: configuration)
}

extension RawResponse {
    /// The body as JSON (`null` when it is not JSON).
    var json: JSONValue { (try? JSONValue(parsing: body)) ?? .null }
}

extension StubServer {
    /// The server's reply to a GET as a value, no socket: for delays and faults, which
    /// ``HTTPHandler/answer(_:headers:)`` sets aside or throws.
    func reply(_ target: String, headers: [(String, String)] = []) -> HTTPReply {
        var fields: HTTPHeaders = ["Host": "127.0.0.1"]
        for (name, value) in headers { fields.add(name: name, value: value) }
        return reply(to: HTTPServerRequest(method: .get, target: target, headers: fields))
    }
}

extension HTTPReply {
    /// The delay of a reply held back by a fixed time (a distribution is drawn per request
    /// into one), and nil for any other reply. The wire keeps it on the loop's timers
    /// (`HTTPServerFaultTests`, on a hand-moved clock).
    var fixedDelay: Duration? {
        guard case .delayed(_, .fixed(let duration)) = self else { return nil }
        return duration
    }
}
