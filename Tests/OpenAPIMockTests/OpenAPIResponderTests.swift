import APISchema
import ContractKit
import Foundation
import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine
import OpenAPIMock
import StubFormat
import Testing

@Suite struct OpenAPIResponderTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func contract() throws -> Contract {
        try OpenAPIReader().read(file: folder.appendingPathComponent("items.yaml").path)
    }

    static func answer(
        _ responder: OpenAPIResponder, _ path: String, method: HTTPMethod = .get, headers: HTTPHeaders = [:]
    ) throws -> HTTPResponse {
        try #require(responder.answer(method: method, path: path, headers: headers)).response
    }

    static func json(_ response: HTTPResponse) throws -> JSONValue {
        try JSONValue(parsing: response.body)
    }

    @Test func theReaderKeepsServersAndNamedExamples() throws {
        let contract = try Self.contract()
        #expect(contract.servers == ["https://items.example.com/v2"])
        let response = try #require(contract.operation(named: "GET /items/{id}")?.response(for: 200))
        #expect(response.namedExamples.map(\.name) == ["hammer", "apple"])
    }

    @Test func itIsMountedUnderTheFirstServersPath() throws {
        let responder = OpenAPIResponder(contract: try Self.contract())
        #expect(responder.basePath == "/v2")
        #expect(responder.answer(method: .get, path: "/items", headers: [:]) == nil)
        #expect(try Self.answer(responder, "/v2/items").status.code == 200)
        let overridden = OpenAPIResponder(contract: try Self.contract(), basePath: "/")
        #expect(try Self.answer(overridden, "/items").status.code == 200)
    }

    @Test func anUndocumentedPathIsA404NamingTheClosestOperations() throws {
        let response = try Self.answer(OpenAPIResponder(contract: try Self.contract()), "/v2/itemz")
        #expect(response.status.code == 404)
        let closest = try #require(try Self.json(response)["closest"])
        #expect(closest.arrayValue?.first == .string("GET /items"))
    }

    @Test func anUndocumentedMethodIsA405WithAllow() throws {
        let response = try Self.answer(OpenAPIResponder(contract: try Self.contract()), "/v2/items", method: .delete)
        #expect(response.status.code == 405)
        #expect(response.headers.first(name: "Allow") == "GET, POST")
    }

    @Test func theStatusIsTheLowest2xxOrTheOneAskedFor() throws {
        let responder = OpenAPIResponder(contract: try Self.contract())
        #expect(try Self.answer(responder, "/v2/items", method: .post).status.code == 201)
        let asked = try Self.answer(responder, "/v2/items", method: .post, headers: ["Prefer": "code=422"])
        #expect(asked.status.code == 422)
        #expect(try Self.json(asked)["message"] != nil)
        let undocumented = try Self.answer(responder, "/v2/items", method: .post, headers: ["Prefer": "code=418"])
        #expect(undocumented.status.code == 400)
    }

    @Test func examplesComeFirstNamedOnesByPrefer() throws {
        let responder = OpenAPIResponder(contract: try Self.contract())
        let first = try Self.json(try Self.answer(responder, "/v2/items/1"))
        #expect(first["name"] == .string("hammer"))
        let apple = try Self.json(try Self.answer(responder, "/v2/items/1", headers: ["Prefer": "example=apple"]))
        #expect(apple["name"] == .string("apple"))
        let missing = try Self.answer(responder, "/v2/items/1", headers: ["Prefer": "example=pear"])
        #expect(missing.status.code == 400)
    }

    @Test(arguments: ["GET /items", "POST /items", "GET /categories", "GET /shapes"])
    func generatedBodiesAreValidAgainstTheirSchema(operationName: String) throws {
        let contract = try Self.contract()
        let operation = try #require(contract.operation(named: operationName))
        let path = "/v2" + operation.path
        let response = try Self.answer(OpenAPIResponder(contract: contract), path, method: operation.method)
        let observed = ObservedResponse(
            url: path, status: response.status.code, contentType: response.headers.first(name: "Content-Type"),
            body: response.body)
        let findings = ContractValidator(contract: contract).validate(observed, for: operation).findings
        #expect(findings.filter { $0.level == .breaking }.isEmpty, "\(findings)")
    }

    @Test func generatedBodiesAreDeterministic() throws {
        let first = try Self.answer(OpenAPIResponder(contract: try Self.contract()), "/v2/items")
        let second = try Self.answer(OpenAPIResponder(contract: try Self.contract()), "/v2/items")
        #expect(first.body == second.body)
        #expect(!first.body.isEmpty)
    }

    @Test func answersArePreparedOnce() throws {
        let responder = OpenAPIResponder(contract: try Self.contract())
        let first = try #require(responder.answer(method: .get, path: "/v2/items", headers: [:]))
        let second = try #require(responder.answer(method: .get, path: "/v2/items", headers: [:]))
        #expect(first === second)
    }

    @Test func aRecursiveSchemaGivesABoundedBody() throws {
        let contract = try Self.contract()
        let response = try Self.answer(OpenAPIResponder(contract: contract), "/v2/categories")
        var node = try Self.json(response)
        var depth = 0
        while let children = node["children"]?.arrayValue, let first = children.first {
            node = first
            depth += 1
        }
        #expect(depth <= 8)
    }
}
