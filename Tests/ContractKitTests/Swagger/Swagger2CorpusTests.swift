import APISchema
import ContractKit
import Foundation
import JSONKit
import Testing

/// The OpenAPI Initiative's Swagger 2.0 examples (Fixtures/oai, see its README): each reads,
/// JSON and YAML alike, and the 2.0 petstore differs from its 3.0 successor only where the two
/// documents really differ.
@Suite struct Swagger2CorpusTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/oai")

    static func contract(_ file: String) throws -> Contract {
        try OpenAPIReader().read(file: folder.appendingPathComponent(file).path)
    }

    @Test(arguments: [
        ("swagger2-petstore.yaml", ["GET /pets", "POST /pets", "GET /pets/{petId}"]),
        ("swagger2-petstore-expanded.yaml", ["GET /pets", "POST /pets", "GET /pets/{id}", "DELETE /pets/{id}"]),
        (
            "swagger2-uber.yaml",
            ["GET /products", "GET /estimates/price", "GET /estimates/time", "GET /me", "GET /history"]
        ),
        ("swagger2-api-with-examples.yaml", ["GET /", "GET /v2"]),
    ])
    func eachExampleReads(file: String, operations: [String]) throws {
        let contract = try Self.contract(file)
        #expect(contract.operations.map(\.name) == operations)
        #expect(contract.ignoredKeywords == [], "\(contract.ignoredKeywords)")
    }

    /// Upstream's JSON petstore is not quite its YAML one (it leaves out `type: object` on two
    /// definitions and says "An paged array"): the same operations and servers, no change between them.
    @Test func jsonAndYAMLReadAlike() throws {
        let json = try Self.contract("swagger2-petstore.json")
        let yaml = try Self.contract("swagger2-petstore.yaml")
        #expect(json.operations.map(\.name) == yaml.operations.map(\.name))
        #expect(json.servers == yaml.servers)
        #expect(ContractDiff().changes(old: json, new: yaml).map(\.message) == [])
    }

    @Test func thePetstoreKeepsItsServerParametersAndSchemas() throws {
        let contract = try Self.contract("swagger2-petstore.yaml")
        #expect(contract.servers == ["http://petstore.swagger.io/v1"])
        #expect(contract.components.map(\.name) == ["Pet", "Pets", "Error"])
        let list = try #require(contract.operation(named: "GET /pets"))
        #expect(list.parameters.first?.name == "limit")
        #expect(list.parameters.first?.schema.types == [.integer])
        #expect(list.response(for: 200)?.headers.map(\.name) == ["x-next"])
        #expect(list.response(for: 200)?.mediaType == "application/json")
    }

    /// The 3.0 petstore (examples/v3.0/petstore.yaml of the same commit) is the 2.0 one
    /// rewritten, with three real changes: `limit` gains `maximum: 100`, `POST /pets` gains a
    /// required `Pet` body, and `GET /pets/{petId}` answers one `Pet`, not `Pets`. The 3.0
    /// `Pets` also gains `maxItems: 100`, which a client never notices (no finding). Nothing else
    /// is reported.
    @Test func diffAgainstThe30PetstoreReportsOnlyRealChanges() throws {
        let old = try Self.contract("swagger2-petstore.yaml")
        let new = try Self.contract("petstore.yaml")
        let changes = ContractDiff().changes(old: old, new: new).map {
            "\($0.id.rawValue)|\($0.level.rawValue)|\($0.operation)|\($0.path)"
        }
        #expect(
            changes == [
                "request-parameter-bound-tightened|breaking|GET /pets|query.limit",
                "request-body-added-required|breaking|POST /pets|$",
                "response-property-type-changed|breaking|GET /pets/{petId}|$",
            ], "\(changes)")
        let back = ContractDiff().changes(old: new, new: new)
        #expect(back.isEmpty)
    }
}
