import Foundation
import TestSupport
import Testing

/// The admin API of a running `petmock serve`: a token, when set, guards every `/__admin`
/// route, and serving on all interfaces without one says so.
@Suite struct AdminSurfaceTests {
    static let stubs = BuiltTools.repositoryRoot.appendingPathComponent("Stubs").path

    /// Every route the admin API has, each method it takes, and some it does not have.
    static let routes = [
        ("GET", "/__admin"), ("GET", "/__admin/"), ("GET", "/__admin/health"), ("GET", "/__admin/mappings"),
        ("POST", "/__admin/mappings"), ("DELETE", "/__admin/mappings"), ("POST", "/__admin/mappings/reset"),
        ("POST", "/__admin/mappings/save"), ("GET", "/__admin/mappings/5d1a4c52-0000-4000-8000-000000000001"),
        ("PUT", "/__admin/mappings/5d1a4c52-0000-4000-8000-000000000001"),
        ("DELETE", "/__admin/mappings/5d1a4c52-0000-4000-8000-000000000001"), ("GET", "/__admin/requests"),
        ("DELETE", "/__admin/requests"), ("GET", "/__admin/requests/count"), ("POST", "/__admin/requests/count"),
        ("POST", "/__admin/requests/find"), ("GET", "/__admin/requests/unmatched"),
        ("GET", "/__admin/requests/unmatched/near-misses"), ("POST", "/__admin/reset"), ("GET", "/__admin/scenarios"),
        ("POST", "/__admin/scenarios/reset"), ("PUT", "/__admin/scenarios/s/state"),
        ("GET", "/__admin/petmock/variant"), ("PUT", "/__admin/petmock/variant"),
        ("DELETE", "/__admin/petmock/variant"), ("GET", "/__admin/petmock/variants"),
        ("POST", "/__admin/recordings/start"), ("POST", "/__admin/recordings/stop"),
        ("GET", "/__admin/recordings/status"), ("POST", "/__admin/recordings/snapshot"),
        ("GET", "/__admin/version"), ("GET", "/__admin/settings"), ("PUT", "/__admin/settings"),
        ("POST", "/__admin/settings"), ("PATCH", "/__admin/settings"), ("PATCH", "/__admin/settings/extended"),
        ("GET", "/__admin/files"), ("GET", "/__admin/files/pets.json"), ("PUT", "/__admin/files/pets.json"),
        ("DELETE", "/__admin/files/pets.json"),
        ("POST", "/__admin/no-such-route"), ("GET", "/__admin/../__admin/mappings"), ("POST", "/__admin/shutdown"),
    ]

    static func request(_ method: String, _ path: String, token: String? = nil) -> String {
        let authorization = token.map { "Authorization: Bearer \($0)\r\n" } ?? ""
        return "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(authorization)Content-Length: 2\r\n"
            + "Connection: close\r\n\r\n{}"
    }

    static func status(_ port: Int, _ method: String, _ path: String, token: String? = nil) throws -> Int? {
        let client = try RawClient(port: port)
        try client.send(request(method, path, token: token))
        let text = try client.readToEnd().text
        return text.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) }
    }

    @Test func aTokenGuardsEveryAdminRoute() async throws {
        let folder = try TemporaryDirectory(prefix: "petkit-admin")
        defer { folder.remove() }
        let server = try await ServerProcess(
            "petmock", ["serve", "--stubs", Self.stubs, "--port", "0", "--admin-token", "s3cret"])
        defer { server.terminate() }
        for (method, path) in Self.routes {
            #expect(try Self.status(server.port, method, path) == 401, "\(method) \(path) without the token")
            let wrong = try Self.status(server.port, method, path, token: "s3cre")
            #expect(wrong == 401, "\(method) \(path) with a wrong token")
        }
        // An admin path spelled differently is not the admin API: the stubs answer it (404).
        #expect(try Self.status(server.port, "POST", "/%5F%5Fadmin/shutdown") == 404)
        #expect(try Self.status(server.port, "GET", "/__ADMIN/mappings") == 404)
        #expect(try Self.status(server.port, "GET", "/__admin/health", token: "s3cret") == 200)
        #expect(try Self.status(server.port, "GET", "/api/pets") == 200)
    }

    @Test(arguments: [
        (["--host", "0.0.0.0"], true), (["--host", "0.0.0.0", "--admin-token", "t"], false),
        (["--host", "127.0.0.1"], false),
    ])
    func servingBeyondLoopbackWithoutATokenWarns(options: [String], warns: Bool) async throws {
        let server = try await ServerProcess("petmock", ["serve", "--stubs", Self.stubs, "--port", "0"] + options)
        await server.stop()
        let text = server.finalErrorOutput()
        #expect(text.contains("warning: listening on 0.0.0.0 without --admin-token") == warns, "\(text)")
    }
}
