import APISchema
import ArgumentKit
import Foundation
import JSONKit
import MockCLI
import MockEngine
import OpenAPIMock
import Testing

/// `petmock variants --openapi`: a document's named examples and each answer's JSON fields.
@Suite struct DocumentVariantsTests {
    static func catalog() throws -> VariantCatalog {
        let responder = OpenAPIResponder(contract: try OpenAPIReader().read(file: GeneratedStubsTests.items))
        return DocumentStubSet(responder: responder).variantCatalog()
    }

    @Test func namedExamplesAreListedAsVariantsOfTheirOperation() throws {
        let catalog = try Self.catalog()
        #expect(catalog.names.contains("apple"))
        #expect(catalog.names.contains("hammer"))
        let apple = try #require(catalog.fileVariants.first { $0.name == "apple" })
        #expect(apple.endpoints == ["GET /v2/items/{id}"])
    }

    @Test func everyOperationAndStatusHasItsFields() throws {
        let catalog = try Self.catalog()
        let item = try #require(catalog.operations.first { $0.operation == "GET /items/{id}" && $0.status == "200" })
        #expect(item.fields == ["id", "kind", "name", "price"])
        #expect(catalog.operations.contains { $0.operation == "POST /items" && $0.status == "422" })
        #expect(catalog.description.contains("  GET /items/{id} 200: id, kind, name, price"))
        #expect(catalog.description.contains("Named examples (Prefer: example=NAME):"))
        let json = catalog.json
        #expect(json["operations"]?.arrayValue?.count == catalog.operations.count)
    }

    /// The stateful roles `petmock variants` lists come from the document's collections with
    /// no store made, so nothing is seeded: the same roles a stateful responder lists.
    @Test func theStatefulRolesAreListedWithoutAStore() throws {
        let contract = try StatefulResourceTests.contract()
        let plain = OpenAPIResponder(contract: contract)
        let listed = plain.operations(roles: ResourceModel(contract: contract))
        #expect(plain.store == nil && plain.operations.allSatisfy { $0.stateful == nil })
        let stateful = OpenAPIResponder(contract: contract, stateful: true)
        #expect(listed == stateful.operations)
        #expect(listed.contains { $0.stateful?.role == "create" && $0.stateful?.collection == "/v1/things" })
    }

    @Test func aStubSetsListingHasNoOperations() {
        let catalog = VariantCatalog(mappings: [])
        #expect(catalog.operations.isEmpty)
        #expect(catalog.json["operations"] == nil)
        #expect(catalog.description.contains("File variants (mappings with metadata.variant):"))
    }

    @Test(arguments: [
        (["variants", "--openapi", GeneratedStubsTests.items], ExitCode.success),
        (["variants", "--openapi", GeneratedStubsTests.items, "--format", "json"], .success),
        (["variants", "--openapi", "/nonexistent/items.yaml"], .couldNotRun),
        (["variants", "--openapi", GeneratedStubsTests.items, "--stubs", "Stubs"], .usage),
        (["variants", "--base-path", "/api"], .usage),
    ])
    func theCommandsExitCodes(arguments: [String], expected: ExitCode) async {
        #expect(await MockTool(contract: nil).run(arguments) == expected)
    }
}
