import HTTPCore
import JSONKit
import MockEngine
import StubFormat
import StubServerKit
import TestSupport
import Testing

/// The library as an app's tests use it: mappings built in Swift, a free port, the admin
/// in process (the example in docs/libraries.md), or no port at all, replies as values.
@Suite struct InProcessTests {
    @Test func mappingsBuiltInSwiftOnAFreePort() throws {
        let server = try StubServer(mappings: [
            StubMapping(
                request: RequestPattern(method: .get, url: .urlPath("/api/pets")),
                response: ResponseDefinition(
                    headers: ["Content-Type": "application/json"],
                    body: .json([["firstName": "Rex", "lastName": "Smith", "vetId": 1]])))
        ])
        try server.start()
        defer { server.stop() }
        #expect(server.port > 0 && server.baseURL == "http://127.0.0.1:\(server.port)")
        #expect(try fetch(server.port, "/api/pets").json[0]?["firstName"] == "Rex")

        try server.admin.setVariant("missing:lastName")
        #expect(try fetch(server.port, "/api/pets").json[0]?["lastName"] == nil)
        #expect(server.admin.requests().count == 2)
        #expect(server.admin.requests().first?.variant == "missing:lastName")
    }

    @Test func aFolderPlusSwiftMappings() throws {
        let server = try StubServer(
            stubsDirectory: Fixtures.stubs,
            mappings: [
                StubMapping(
                    request: RequestPattern(url: .url("/extra")), response: ResponseDefinition(body: .text("x")))
            ],
            configuration: StubServerConfiguration(eventLoopCount: 1))
        // Not started: its replies as values.
        #expect(try server.answer("/extra").text == "x")
        #expect(try server.answer("/api/pets").status == 200)
        try server.admin.resetMappings()
        #expect(try server.answer("/extra").text == "x", "code mappings survive a reset")
    }

    @Test func twoServersSideBySide() throws {
        let first = try startServer(stubs: Fixtures.stubs)
        let second = try startServer(stubs: Fixtures.stubs) { $0.variant = "pets-wrapped" }
        defer {
            first.stop()
            second.stop()
        }
        #expect(first.port != second.port)
        #expect(try fetch(first.port, "/api/pets").json.arrayValue != nil)
        #expect(try fetch(second.port, "/api/pets").json["items"] != nil)
    }
}

@Suite struct ConcurrencyTests {
    /// Requests answered on three threads while a fourth changes mappings and the variant.
    @Test func servingWhileMappingsChange() async throws {
        let server = try makeServer(stubs: Fixtures.stubs)
        let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<3 {
                group.addTask {
                    var seen: [Int] = []
                    for _ in 0..<60 { seen.append(try server.answer("/api/pets").status) }
                    return seen
                }
            }
            group.addTask {
                for number in 0..<60 {
                    let mapping = StubMapping(
                        request: RequestPattern(url: .url("/churn/\(number)")), response: ResponseDefinition())
                    try server.admin.addMapping(mapping)
                    if number % 2 == 0 { try server.admin.removeMapping(id: mapping.id) }
                    try server.admin.setVariant(number % 3 == 0 ? "missing:vetId" : nil)
                }
                return []
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(statuses.count == 180 && statuses.allSatisfy { $0 == 200 })
        #expect(server.admin.mappings().filter { $0.request.url?.value.hasPrefix("/churn/") == true }.count == 30)
    }
}
