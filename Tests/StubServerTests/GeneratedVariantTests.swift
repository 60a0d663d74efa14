import HTTPCore
import JSONKit
import TestSupport
import Testing

@testable import StubServer

/// The generated drift variants, seen from a client socket.
@Suite struct GeneratedVariantTests {
    static let nested = StubMapping(
        id: "00000000-0000-4000-8000-000000000001",
        request: RequestPattern(method: .get, url: .urlPath("/nested")),
        response: ResponseDefinition(
            headers: ["Content-Type": "application/json"],
            body: .json(["pets": [["name": "Rex", "vetId": 1, "vet": ["vetId": 2, "title": "DVM"]], ["name": "Bo"]]])))

    static let drifts: [(String, JSONValue)] = [
        (
            "missing:vetId",
            ["pets": [["name": "Rex", "vet": ["title": "DVM"]], ["name": "Bo"]]]
        ),
        (
            "null:vetId",
            ["pets": [["name": "Rex", "vetId": nil, "vet": ["vetId": nil, "title": "DVM"]], ["name": "Bo"]]]
        ),
        (
            "type:vetId",
            ["pets": [["name": "Rex", "vetId": "1", "vet": ["vetId": "2", "title": "DVM"]], ["name": "Bo"]]]
        ),
        (
            "rename:vetId=vet_id",
            ["pets": [["name": "Rex", "vet_id": 1, "vet": ["vet_id": 2, "title": "DVM"]], ["name": "Bo"]]]
        ),
        (
            "type:pets",
            ["pets": ["items": [["name": "Rex", "vetId": 1, "vet": ["vetId": 2, "title": "DVM"]], ["name": "Bo"]]]]
        ),
        (
            "missing:nothere",
            ["pets": [["name": "Rex", "vetId": 1, "vet": ["vetId": 2, "title": "DVM"]], ["name": "Bo"]]]
        ),
    ]

    @Test(arguments: drifts)
    func jsonDriftAppliesToEveryObject(_ variant: String, _ expected: JSONValue) throws {
        let server = try startServer(mappings: [Self.nested])
        defer { server.stop() }
        let response = try fetch(server.port, "/nested", headers: [("X-Petmock-Variant", variant)])
        #expect(response.status == 200)
        #expect(response.json == expected, "\(response.text)")
        #expect(response.headers["Petmock-Variant"] == variant)
        #expect(response.headers["Matched-Stub-Id"] == Self.nested.id)
        #expect(response.headers["Content-Length"] == String(response.body.count))
    }

    @Test(arguments: [
        "missing:vetId", "null:vetId", "type:vetId", "rename:vetId=vet_id", "truncated", "empty", "html-error",
        "slow:1",
    ])
    func everyGeneratedAnswerNamesItsStub(_ variant: String) throws {
        var named = Self.nested
        named.name = "nested pets"
        let server = try startServer(mappings: [named])
        defer { server.stop() }
        let response = try fetch(server.port, "/nested", headers: [("X-Petmock-Variant", variant)])
        #expect(response.headers["Matched-Stub-Id"] == named.id)
        #expect(response.headers["Matched-Stub-Name"] == "nested pets")
        #expect(response.headers["Petmock-Variant"] == variant, "every generated answer says which variant made it")
    }

    @Test func typeDriftFlipsEveryKind() {
        #expect(DriftGenerator.otherType(1) == "1")
        #expect(DriftGenerator.otherType("12") == 12)
        #expect(DriftGenerator.otherType("DVM") == 0)
        #expect(DriftGenerator.otherType(true) == "true")
        #expect(DriftGenerator.otherType(nil) == "null")
        #expect(DriftGenerator.otherType(["a": 1]) == [["a": 1]])
    }

    @Test func bodyVariantsOnThePetList() throws {
        let server = try startServer(stubs: Fixtures.stubs)
        defer { server.stop() }
        let base = try fetch(server.port, "/api/pets")
        let truncated = try fetch(server.port, "/api/pets", headers: [("X-Petmock-Variant", "truncated")])
        #expect(truncated.status == 200 && truncated.body == Array(base.body.prefix(base.body.count / 2)))
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: truncated.body) }
        let empty = try fetch(server.port, "/api/pets", headers: [("Prefer", "example=empty")])
        #expect(empty.status == 200 && empty.body.isEmpty && empty.headers["Content-Type"] == "application/json")
        let html = try fetch(server.port, "/api/vets/1", headers: [("X-Petmock-Variant", "html-error")])
        #expect(html.status == 502 && html.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(html.text.contains("502 Bad Gateway"))
    }

    @Test func slowAndResetGenerated() throws {
        let server = try startServer(stubs: Fixtures.stubs)
        defer { server.stop() }
        let start = ContinuousClock.now
        let slow = try fetch(server.port, "/api/vets/1", headers: [("X-Petmock-Variant", "slow:300")])
        #expect(ContinuousClock.now - start >= .milliseconds(300))
        #expect(slow.json["firstName"] == "Ann")
        let outcome = try exchange(server.port, "/api/vets/1", headers: [("X-Petmock-Variant", "reset")])
        guard case .reset = outcome else {
            Issue.record("expected a reset, got \(outcome)")
            return
        }
    }

    @Test func variantsAreCachedAndDoNotTouchTheBase() throws {
        let server = try startServer(mappings: [Self.nested])
        defer { server.stop() }
        let first = try fetch(server.port, "/nested", headers: [("X-Petmock-Variant", "missing:name")])
        let second = try fetch(server.port, "/nested", headers: [("X-Petmock-Variant", "missing:name")])
        #expect(first.body == second.body)
        #expect(try fetch(server.port, "/nested").json[path: "pets"]?[0]?["name"] == "Rex")
    }
}

extension JSONValue {
    fileprivate subscript(path key: String) -> JSONValue? { self[key] }
}
