import APISchema
import ContractKit
import Foundation
import HTTPCore
import JSONKit
import OpenAPIMock
import Testing

/// The OpenAPI Initiative's Swagger 2.0 examples served: every GET operation answers with a
/// body valid against its schema.
@Suite struct SwaggerDocumentTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ContractKitTests/Fixtures/oai")

    static let cases: [(file: String, operation: String)] = [
        ("swagger2-petstore.yaml", "GET /pets"), ("swagger2-petstore.yaml", "GET /pets/{petId}"),
        ("swagger2-petstore.json", "GET /pets"),
        ("swagger2-petstore-expanded.yaml", "GET /pets"), ("swagger2-petstore-expanded.yaml", "GET /pets/{id}"),
        ("swagger2-uber.yaml", "GET /products"), ("swagger2-uber.yaml", "GET /estimates/price"),
        ("swagger2-uber.yaml", "GET /estimates/time"), ("swagger2-uber.yaml", "GET /me"),
        ("swagger2-uber.yaml", "GET /history"),
        ("swagger2-api-with-examples.yaml", "GET /"), ("swagger2-api-with-examples.yaml", "GET /v2"),
    ]

    @Test(arguments: cases)
    func eachGetOperationAnswersWithAValidBody(file: String, operationName: String) throws {
        let contract = try OpenAPIReader().read(file: Self.folder.appendingPathComponent(file).path)
        let operation = try #require(contract.operation(named: operationName))
        let responder = OpenAPIResponder(contract: contract, validatesRequests: false, enforcesSecurity: false)
        let path = responder.basePath + operation.path.replacing(/\{[^}]*\}/, with: "1")
        let response = try #require(responder.answer(method: .get, path: path, headers: [:])).response
        #expect(response.status.code / 100 == 2, "\(response.status.code)")
        let observed = ObservedResponse(
            url: path, status: response.status.code, contentType: response.headers.first(name: "Content-Type"),
            body: response.body)
        let findings = ContractValidator(contract: contract).validate(observed, for: operation).findings
        #expect(findings.filter { $0.level == .breaking }.isEmpty, "\(findings)")
        if operation.response(for: response.status.code)?.schema != nil { #expect(!response.body.isEmpty) }
    }

    @Test func thePetstoreIsMountedUnderItsBasePath() throws {
        let contract = try OpenAPIReader().read(
            file: Self.folder.appendingPathComponent("swagger2-petstore.yaml").path)
        #expect(OpenAPIResponder(contract: contract).basePath == "/v1")
    }
}
