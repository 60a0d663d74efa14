import Foundation
import HTTPCore
import JSONKit
import Platform
import StubFormat
import StubServerKit
import TestSupport
import Testing

/// The pet store collection in `Fixtures/Postman`: folders, variables, an environment, several
/// examples per request, served by a stub server with no socket, and written as a stub folder
/// that reads back to the same mappings.
@Suite struct PostmanFixtureTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Postman")
    static let collectionPath = folder.appendingPathComponent("petstore.postman_collection.json").path
    static let environmentPath = folder.appendingPathComponent("local.postman_environment.json").path

    static func stubs(environment: Bool = true) throws -> PostmanStubSet {
        let collection = try PostmanCollection(bytes: FileSystem.read(collectionPath), source: "petstore")
        let values =
            try environment ? PostmanEnvironment(bytes: FileSystem.read(environmentPath), source: "local") : nil
        return collection.stubs(environment: values)
    }

    @Test func theCollectionReadsWithOnlyTheRequestWithoutExamplesNamed() throws {
        let set = try Self.stubs()
        #expect(set.requestCount == 5)
        #expect(set.mappings.count == 7)
        #expect(
            set.problems.map(\.description) == [
                "petstore: warning: $.item[2]: the request 'Health' has no saved example, so no stub"
            ])
        #expect(set.mappings.compactMap(\.variant) == ["Rex-adopted"])
    }

    @Test func withoutTheEnvironmentTheTokenIsNamedAndMatchedAsAnyText() throws {
        let set = try Self.stubs(environment: false)
        #expect(set.problems.map(\.kind) == [.unresolvedVariable, .noExample])
        let server = try StubServer(mappings: set.mappings)
        #expect(
            try server.answer("/api/store/inventory", headers: [("Authorization", "Bearer anything")]).status == 200)
    }

    /// What each example answers, through the engine.
    static let exchanges: [(method: String, target: String, headers: [(String, String)], status: Int, body: String)] = [
        ("GET", "/api/pets?limit=2", [], 200, #"[{"id":1,"name":"Rex"},{"id":2,"name":"Tom","status":"sold"}]"#),
        ("GET", "/api/pets?sort=name%20asc&status=sold", [], 200, #"[{"id":2,"name":"Tom","status":"sold"}]"#),
        ("GET", "/api/pets?limit=10", [], 404, ""),
        ("GET", "/api/pets/1", [], 200, #"{"id":1,"name":"Rex"}"#),
        (
            "GET", "/api/pets/1", [("X-Petmock-Variant", "Rex-adopted")], 200,
            #"{"id":1,"name":"Rex","status":"adopted"}"#
        ),
        ("GET", "/api/pets/1", [("Prefer", "example=Rex-adopted")], 200, #"{"id":1,"name":"Rex","status":"adopted"}"#),
        ("GET", "/api/pets/999", [], 404, "No pet with id 999"),
        ("POST", "/api/pets/5/photos", [], 201, ""),
        ("GET", "/api/store/inventory", [("Authorization", "Bearer s3cret")], 200, #"{"available":4,"sold":1}"#),
        ("GET", "/api/store/inventory", [("Authorization", "Bearer wrong")], 404, ""),
        ("GET", "/health", [], 404, ""),
    ]

    @Test func theExamplesAnswer() throws {
        let server = try StubServer(mappings: try Self.stubs().mappings)
        for exchange in Self.exchanges {
            let answer = try server.answer(exchange.method, exchange.target, headers: exchange.headers)
            #expect(answer.status == exchange.status, "\(exchange.method) \(exchange.target)")
            if exchange.status != 404 || !exchange.body.isEmpty {
                #expect(answer.text == exchange.body, "\(exchange.method) \(exchange.target)")
            }
        }
        let inventory = try server.answer("/api/store/inventory", headers: [("Authorization", "Bearer s3cret")])
        #expect(inventory.header("Content-Type") == "application/json; charset=utf-8")
        #expect(inventory.header("Transfer-Encoding") == nil)
        let created = try server.answer("POST", "/api/pets/5/photos")
        #expect(created.header("Location") == "/api/pets/1/photos/7")
    }

    /// `petmock generate --postman` writes through the one writer; the folder reads back to
    /// the same mappings, with no problem.
    @Test func theWrittenFolderReadsBackToTheSameMappings() throws {
        let set = try Self.stubs()
        let directory = try TemporaryDirectory(prefix: "postman-folder")
        defer { directory.remove() }
        let root = directory.file("Stubs")
        try StubFolderWriter(folder: StubFolder(root: root)).write(mappings: set.mappings)
        let contents = try StubFolder(root: root).read()
        #expect(contents.problems.isEmpty, "\(contents.problems)")
        let byID = Dictionary(uniqueKeysWithValues: contents.mappings.map { ($0.mapping.id, $0.mapping) })
        for mapping in set.mappings { #expect(byID[mapping.id] == mapping, "\(mapping.name ?? "")") }
        #expect(byID.count == set.mappings.count)
    }
}
