import APISchema
import ContractKit
import HTTPCore
import JSONKit
import OpenAPIMock
import Testing

/// `Prefer: dynamic=true`: a fresh valid body each time, reported by its seed and replayed
/// with `seed=N`; fixed answers stay cached and byte-identical; the load-time check names
/// what cannot be generated, and that answer is a 500.
@Suite struct DynamicAnswerTests {
    static func responder() throws -> OpenAPIResponder {
        OpenAPIResponder(contract: try OpenAPIResponderTests.contract())
    }

    static func answer(_ responder: OpenAPIResponder, _ prefer: String?) throws -> (seed: String?, body: [UInt8]) {
        let headers: HTTPHeaders = prefer.map { ["Prefer": $0] } ?? [:]
        let response = try OpenAPIResponderTests.answer(responder, "/v2/items", method: .post, headers: headers)
        #expect(response.status.code == 201)
        return (response.headers.first(name: "Petmock-Seed"), response.body)
    }

    @Test func eachDynamicAnswerIsFreshAndValid() throws {
        let responder = try Self.responder()
        let contract = try OpenAPIResponderTests.contract()
        let schema = try #require(contract.operation(named: "POST /items")?.response(for: 201)?.schema)
        let validator = SchemaConformance(contract: contract)
        var bodies: Set<[UInt8]> = []
        var seeds: Set<String> = []
        for _ in 0..<6 {
            let (seed, body) = try Self.answer(responder, "dynamic=true")
            seeds.insert(try #require(seed))
            bodies.insert(body)
            #expect(validator.errors(try JSONValue(parsing: body), schema).isEmpty)
        }
        #expect(seeds.count == 6)
        #expect(bodies.count > 1)
    }

    @Test func aDynamicAnswerIsGeneratedEvenWhereThereAreExamples() throws {
        let responder = try Self.responder()
        let fixed = try OpenAPIResponderTests.answer(responder, "/v2/items/1")
        #expect(try JSONValue(parsing: fixed.body)["name"] == .string("hammer"))
        let dynamic = try OpenAPIResponderTests.answer(responder, "/v2/items/1", headers: ["Prefer": "dynamic=true"])
        #expect(dynamic.headers.first(name: "Petmock-Seed") != nil)
        #expect(try JSONValue(parsing: dynamic.body)["name"] != .string("hammer"))
        let named = try OpenAPIResponderTests.answer(
            responder, "/v2/items/1", headers: ["Prefer": "dynamic=true, example=apple"])
        #expect(try JSONValue(parsing: named.body)["name"] == .string("apple"))
    }

    @Test func aSeedReplaysItsBody() throws {
        let responder = try Self.responder()
        let (seed, body) = try Self.answer(responder, "dynamic=true")
        let number = try #require(seed)
        let replayed = try Self.answer(responder, "dynamic=true, seed=\(number)")
        #expect(replayed.seed == number)
        #expect(replayed.body == body)
        #expect(try Self.answer(Self.responder(), "seed=\(number)").body == body)
    }

    @Test func fixedAnswersStayCachedAndIdentical() throws {
        let responder = try Self.responder()
        let first = try OpenAPIResponderTests.answer(responder, "/v2/items", method: .post)
        let second = try OpenAPIResponderTests.answer(responder, "/v2/items", method: .post)
        #expect(first.headers.first(name: "Petmock-Seed") == nil)
        #expect(first.body == second.body)
        let again = try OpenAPIResponderTests.answer(try Self.responder(), "/v2/items", method: .post)
        #expect(again.body == first.body)
    }

    static let hostile = """
        {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
         "paths": {"/a/{id}": {"get": {"responses": {
            "200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Loop"}}}},
            "404": {"description": "gone", "content": {"application/json": {"schema": {"type": "string"}}}}}}},
           "/b": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {"schema":
            {"type": "string", "pattern": "^[0-9]{5}$", "maxLength": 3}}}}}}}},
         "components": {"schemas": {"Loop": {"type": "object", "required": ["next"],
            "properties": {"next": {"$ref": "#/components/schemas/Loop"}}}}}}
        """

    @Test func theLoadTimeCheckNamesOperationStatusAndPointer() throws {
        let contract = try OpenAPIReader().read(Array(Self.hostile.utf8), source: "hostile.json")
        let problems = GenerationCheck.problems(in: contract)
        #expect(problems.map(\.operation) == ["GET /a/{id}", "GET /b"])
        #expect(problems.map(\.status) == ["200", "200"])
        #expect(problems.first?.pointer == "#/paths/~1a~1{id}/get/responses/200/content/application~1json/schema")
        #expect(problems.last?.reason.contains("pattern") == true)
    }

    @Test func anUngeneratableResponseIsA500NamingIt() throws {
        let contract = try OpenAPIReader().read(Array(Self.hostile.utf8), source: "hostile.json")
        let responder = OpenAPIResponder(contract: contract, basePath: "/")
        let response = try #require(responder.answer(method: .get, path: "/b", headers: [:])).response
        #expect(response.status.code == 500)
        let body = try JSONValue(parsing: response.body)
        #expect(body["operation"] == .string("GET /b"))
        #expect(body["pointer"] == .string("#/paths/~1b/get/responses/200/content/application~1json/schema"))
        let other = try #require(responder.answer(method: .get, path: "/a/1", headers: ["Prefer": "code=404"]))
        #expect(other.response.status.code == 404)
    }
}
