import APISchema
import ContractKit
import Foundation
import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine
import OpenAPIMock
import StubFormat
import StubServerKit
import TestSupport
import Testing

/// The document as the engine's fallback: stubs first, drift variants alike, served on a socket.
@Suite struct DocumentServingTests {
    static func server(mappings: [StubMapping] = [], variant: String? = nil) throws -> StubServer {
        var configuration = StubServerConfiguration(port: 0, eventLoopCount: 1, variant: variant)
        configuration.fallback = OpenAPIResponder(contract: try OpenAPIResponderTests.contract())
        return try StubServer(stubsDirectory: nil, mappings: mappings, configuration: configuration)
    }

    static func response(_ server: StubServer, _ target: String, headers: HTTPHeaders = [:]) throws -> HTTPResponse {
        let reply = server.reply(to: HTTPServerRequest(method: .get, target: target, headers: headers))
        switch reply {
        case .prepared(let prepared): return prepared.response
        case .response(let response): return response
        case .delayed(.prepared(let prepared), _): return prepared.response
        default: throw DocumentAnswerMissing()
        }
    }

    struct DocumentAnswerMissing: Error {}

    @Test func stubsTakePrecedence() throws {
        let stub = StubMapping(
            request: RequestPattern(method: .get, url: .urlPath("/v2/items")),
            response: ResponseDefinition(body: .text("from the stub")))
        let server = try Self.server(mappings: [stub])
        #expect(String(decoding: try Self.response(server, "/v2/items").body, as: UTF8.self) == "from the stub")
        #expect(try Self.response(server, "/v2/items/1").status.code == 200)
        #expect(server.admin.requests().count == 2)
    }

    /// A request outside the mount point is told where the document is mounted and which of its
    /// operations is closest, whether or not stubs are loaded (never WireMock's "no stub mappings").
    @Test(arguments: [false, true])
    func aRequestOutsideTheMountPointIsToldWhereTheDocumentIs(withStubs: Bool) throws {
        let stub = StubMapping(
            request: RequestPattern(method: .get, url: .urlPath("/health")), response: ResponseDefinition())
        let server = try Self.server(mappings: withStubs ? [stub] : [])
        let answer = try Self.response(server, "/items/1")
        #expect(answer.status.code == 404)
        let text = String(decoding: answer.body, as: UTF8.self)
        #expect(text.contains("The document is mounted at '/v2'; '/items/1' is outside it"), "\(text)")
        #expect(text.contains("Closest operations: GET /v2/items/{id}, "), "\(text)")
        #expect(text.contains("No stubs are loaded.") == !withStubs, "\(text)")
        let json = try JSONValue(
            parsing: try Self.response(server, "/items/1", headers: ["Accept": "application/json"]).body)
        #expect(json["document"]?["mountPoint"] == "/v2")
        #expect(json["document"]?["closestOperations"]?[0] == "GET /v2/items/{id}")
        // Inside the mount point the document answers its own 404.
        #expect(try JSONValue(parsing: try Self.response(server, "/v2/itemz").body)["closest"]?[0] == "GET /items")
    }

    @Test func aDriftVariantAppliesToADocumentAnswer() throws {
        let server = try Self.server()
        let drifted = try Self.response(server, "/v2/items/1", headers: ["X-Petmock-Variant": "missing:name"])
        let body = try JSONValue(parsing: drifted.body)
        #expect(body["name"] == nil)
        #expect(body["kind"] == .string("tool"))
        #expect(drifted.headers.first(name: "Petmock-Variant") == "missing:name")
        #expect(server.admin.requests().first?.variant == "missing:name")
    }

    @Test func aServerWideVariantAppliesToDocumentAnswers() throws {
        let server = try Self.server(variant: "null:name")
        let body = try JSONValue(parsing: try Self.response(server, "/v2/items/1").body)
        #expect(body["name"] == .null)
    }

    @Test func preferExampleReachesTheDocument() throws {
        let server = try Self.server()
        let body = try JSONValue(
            parsing: try Self.response(server, "/v2/items/1", headers: ["Prefer": "example=apple"]).body)
        #expect(body["name"] == .string("apple"))
    }

    @Test func servedLiveOnAFreePort() throws {
        let server = try Self.server()
        try server.start()
        defer { server.stop() }
        let response = try fetch(server.port, "/v2/items/1", headers: [("Prefer", "example=apple")])
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        #expect(try JSONValue(parsing: response.body)["name"] == .string("apple"))
        #expect(try fetch(server.port, "DELETE", "/v2/items").status == 405)
    }
}

/// Bodies generated for every response schema of corpus documents validate against their schema.
@Suite struct CorpusGenerationTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ContractKitTests/Fixtures")

    @Test(arguments: [
        "petstore.yaml", "oai/petstore-expanded.yaml", "oai/tictactoe.yaml", "oai/uspto.yaml", "oai/github-slice.yaml",
        "oai/link-example.yaml",
    ])
    func everyGeneratedBodyValidates(file: String) throws {
        let contract = try OpenAPIReader().read(file: Self.fixtures.appendingPathComponent(file).path)
        var contractWithoutExamples = contract
        for index in contractWithoutExamples.operations.indices {
            for response in contractWithoutExamples.operations[index].responses.indices {
                contractWithoutExamples.operations[index].responses[response].examples = []
                contractWithoutExamples.operations[index].responses[response].namedExamples = []
            }
        }
        let responder = OpenAPIResponder(contract: contractWithoutExamples, basePath: "/")
        let validator = ContractValidator(contract: contract)
        var checked = 0
        for operation in contract.operations {
            let path = operation.path.replacingOccurrences(of: "{", with: "x").replacingOccurrences(of: "}", with: "")
            guard let answer = responder.answer(method: operation.method, path: path, headers: [:])?.response,
                (200..<300).contains(answer.status.code), !answer.body.isEmpty
            else { continue }
            let observed = ObservedResponse(
                url: path, status: answer.status.code, contentType: answer.headers.first(name: "Content-Type"),
                body: answer.body)
            let errors = validator.validate(observed, for: operation).findings.filter { $0.level == .breaking }
            #expect(errors.isEmpty, "\(operation.name): \(errors)")
            checked += 1
        }
        #expect(checked > 0)
    }
}
