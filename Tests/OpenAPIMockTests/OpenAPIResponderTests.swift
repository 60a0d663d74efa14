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
        #expect(undocumented.status.code == 404)
    }

    @Test func examplesComeFirstNamedOnesByPrefer() throws {
        let responder = OpenAPIResponder(contract: try Self.contract())
        let first = try Self.json(try Self.answer(responder, "/v2/items/1"))
        #expect(first["name"] == .string("hammer"))
        let apple = try Self.json(try Self.answer(responder, "/v2/items/1", headers: ["Prefer": "example=apple"]))
        #expect(apple["name"] == .string("apple"))
        let missing = try Self.answer(responder, "/v2/items/1", headers: ["Prefer": "example=pear"])
        #expect(missing.status.code == 404)
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

    @Test func documentedHeadersAreSentWithTheirExamples() throws {
        let response = try Self.answer(OpenAPIResponder(contract: try Self.contract()), "/v2/items")
        #expect(response.headers.first(name: "X-Total-Count") == "42")
        let requestId = try #require(response.headers.first(name: "X-Request-Id"))
        #expect(FormatCheck.matches(requestId, format: "uuid"))
        #expect(response.headers.first(name: "Content-Type") == "application/json")
    }

    @Test(arguments: [
        ("", "application/json"), ("text/plain", "text/plain"), ("text/*;q=0.9, application/json;q=0.5", "text/plain"),
        ("application/xml, */*;q=0.1", "application/json"),
        // A combining mark after `,` must not hide it: text/plain is the first member.
        ("text/plain,\u{301}x/y", "text/plain"),
    ])
    func acceptChoosesAmongContentTypes(accept: String, expected: String) throws {
        let headers: HTTPHeaders = accept.isEmpty ? [:] : ["Accept": accept]
        let response = try Self.answer(OpenAPIResponder(contract: try Self.contract()), "/v2/items/1", headers: headers)
        #expect(response.headers.first(name: "Content-Type") == expected)
        if expected == "text/plain" { #expect(String(decoding: response.body, as: UTF8.self) == "hammer, a tool") }
    }

    @Test func anAcceptNothingOfferedMatchesIsA406() throws {
        let response = try Self.answer(
            OpenAPIResponder(contract: try Self.contract()), "/v2/items/1", headers: ["Accept": "application/xml"])
        #expect(response.status.code == 406)
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

    static func responder(for schema: Schema, components: [NamedSchema] = []) -> OpenAPIResponder {
        let operation = ContractOperation(
            method: .get, path: "/value",
            responses: [ContractResponse(status: "200", description: "A value", schema: schema)])
        return OpenAPIResponder(
            contract: Contract(title: "t", version: "1", operations: [operation], components: components))
    }

    @Test(arguments: ["date-time", "date", "time", "uuid", "email", "uri", "hostname", "ipv4", "ipv6", "byte"])
    func generatedStringsHaveTheirFormat(format: String) throws {
        let responder = Self.responder(for: Schema(types: [.string], format: format))
        guard case .string(let text) = try Self.json(try Self.answer(responder, "/value")) else {
            Issue.record("not a string")
            return
        }
        #expect(FormatCheck.matches(text, format: format), "\(text)")
    }

    @Test func aHostileSchemaGivesABoundedRefusal() throws {
        var wide = Schema(types: [.array], items: Schema(types: [.array], items: .reference(toComponent: "Deep")))
        wide.limits.minItems = 1_000_000
        wide.items?.limits.minItems = 1_000_000
        var deep = Schema(
            types: [.object], properties: [SchemaProperty(name: "next", schema: .reference(toComponent: "Deep"))],
            required: ["next"])
        deep.limits.minItems = 5
        let responder = Self.responder(for: wide, components: [NamedSchema(name: "Deep", schema: deep)])
        let response = try Self.answer(responder, "/value")
        // No valid body is that small: a bounded refusal that says why.
        #expect(response.status.code == 500)
        #expect(response.body.count < 100_000)
        #expect(String(decoding: response.body, as: UTF8.self).contains("minItems"))
    }

    @Test func requiredMembersThatMultiplyStayBounded() throws {
        let names = (0..<64).map { "p\($0)" }
        let node = Schema(
            types: [.object],
            properties: names.map { SchemaProperty(name: $0, schema: .reference(toComponent: "Node")) },
            required: names)
        let responder = Self.responder(
            for: .reference(toComponent: "Node"), components: [NamedSchema(name: "Node", schema: node)])
        let response = try Self.answer(responder, "/value")
        #expect(response.body.count < 200_000)
    }

    @Test func aSchemasDefaultComesAfterItsExamples() throws {
        var schema = Schema(types: [.string])
        schema.defaultValue = "fallback"
        #expect(try Self.json(try Self.answer(Self.responder(for: schema), "/value")) == .string("fallback"))
        schema.examples = ["shown"]
        #expect(try Self.json(try Self.answer(Self.responder(for: schema), "/value")) == .string("shown"))
    }
}
