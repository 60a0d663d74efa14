import APISchema
import AdminAPI
import ContractKit
import Foundation
import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine
import Platform
import TestSupport
import Testing

@testable import OpenAPIMock

/// `--stateful`: the document's collections keep what clients create, through the whole handler
/// (admin, variants, journal) as `petmock serve` runs it.
@Suite struct StatefulResourceTests {
    static func contract() throws -> Contract {
        try OpenAPIReader().read(file: OpenAPIResponderTests.folder.appendingPathComponent("things.openapi.json").path)
    }

    static func handler(
        limits: ResourceStore.Limits = ResourceStore.Limits(), log: (@Sendable (String) -> Void)? = nil
    ) throws -> StubHandler {
        let responder = OpenAPIResponder(contract: try contract(), stateful: true, storeLimits: limits, log: log)
        return try GeneratedStubsTests.handler(stubs: nil, fallback: responder)
    }

    static let json = [("Content-Type", "application/json")]

    static func body(_ response: RawResponse) throws -> JSONValue {
        try JSONValue(parsing: response.body)
    }

    @Test func theWholeCycleWorksOnWhatIsStored() throws {
        let handler = try Self.handler()
        // The store starts from the list's example.
        let start = try Self.body(try handler.answer("/v1/things"))
        #expect(start.arrayValue?.map { $0["name"] } == ["hammer", "kite"])

        let created = try handler.answer("POST", "/v1/things", headers: Self.json, body: #"{"name":"saw"}"#)
        #expect(created.status == 201, "\(created.text)")
        #expect(created.header("Location") == "/v1/things/3")
        let resource = try Self.body(created)
        #expect(resource["id"] == 3)
        #expect(resource["name"] == "saw")
        // A field the request did not give is generated, valid against the schema.
        #expect(resource["kind"] == "tool" || resource["kind"] == "toy", "\(resource)")

        let read = try handler.answer("/v1/things/3")
        #expect(read.status == 200)
        #expect(try Self.body(read) == resource)

        let listed = try Self.body(try handler.answer("/v1/things"))
        #expect(listed.arrayValue?.count == 3)
        #expect(listed[2] == resource)

        let replaced = try handler.answer(
            "PUT", "/v1/things/3", headers: Self.json, body: #"{"name":"big saw","kind":"tool","price":9.5}"#)
        #expect(replaced.status == 200, "\(replaced.text)")
        #expect(try Self.body(replaced)["name"] == "big saw")
        #expect(try Self.body(replaced)["id"] == 3)

        let patched = try handler.answer(
            "PATCH", "/v1/things/3", headers: [("Content-Type", "application/merge-patch+json")],
            body: #"{"price":null,"tags":["sharp"]}"#)
        #expect(patched.status == 200, "\(patched.text)")
        let after = try Self.body(patched)
        #expect(after["price"] == nil)
        #expect(after["tags"] == ["sharp"])
        #expect(after["name"] == "big saw")
        #expect(try Self.body(try handler.answer("/v1/things/3")) == after)

        let deleted = try handler.answer("DELETE", "/v1/things/3")
        #expect(deleted.status == 204)
        // The operation's own 404 where it documents one, a problem+json 404 where not.
        let gone = try handler.answer("/v1/things/3")
        #expect(gone.status == 404)
        #expect(try Self.body(gone)["message"] == "no such thing")
        let notPatched = try handler.answer(
            "PATCH", "/v1/things/3", headers: [("Content-Type", "application/merge-patch+json")], body: "{}")
        #expect(notPatched.status == 404)
        #expect(notPatched.header("Content-Type") == "application/problem+json")
        #expect(try Self.body(notPatched)["detail"] == "No resource /things/3: it was never created, or was deleted")
        #expect(try handler.answer("DELETE", "/v1/things/3").status == 404)
        #expect(try handler.answer("/v1/things/oops").status == 400)  // the document's integer id, validated
    }

    @Test func theSchemaWinsOverWhatTheClientSent() throws {
        let handler = try Self.handler()
        // `color` is accepted by the input schema, refused by the resource's (additionalProperties: false).
        let created = try handler.answer(
            "POST", "/v1/things", headers: Self.json, body: #"{"name":"pen","color":"red","kind":"toy"}"#)
        let resource = try Self.body(created)
        #expect(resource["color"] == nil, "\(resource)")
        #expect(resource["kind"] == "toy")
        // Valid against the answer's schema, by the one validator.
        let contract = try Self.contract()
        let thing = try #require(contract.component(named: "Thing"))
        #expect(SchemaConformance(contract: contract).firstError(resource, thing) == nil)
        let patched = try handler.answer(
            "PATCH", created.header("Location") ?? "", headers: [("Content-Type", "application/merge-patch+json")],
            body: #"{"name":null}"#)
        // A patch removing a required field: the field is generated again, the answer stays valid.
        #expect(SchemaConformance(contract: contract).firstError(try Self.body(patched), thing) == nil)
        let keys = Set(resource.objectValue?.keys ?? [])
        #expect(keys.isSubset(of: ["id", "name", "kind", "tags", "price"]), "\(keys)")
    }

    @Test func aListIsPagedAsTheDocumentSays() throws {
        let handler = try Self.handler()
        for number in 1...30 {
            _ = try handler.answer("POST", "/v1/things", headers: Self.json, body: #"{"name":"n\#(number)"}"#)
        }
        // 32 stored; the documented default limit is 20, the maximum 50.
        #expect(try Self.body(try handler.answer("/v1/things")).arrayValue?.count == 20)
        let page = try Self.body(try handler.answer("/v1/things?limit=5&offset=10"))
        #expect(page.arrayValue?.map { $0["name"] } == ["n9", "n10", "n11", "n12", "n13"])
        #expect(try Self.body(try handler.answer("/v1/things?offset=30&limit=10")).arrayValue?.count == 2)
        #expect(try Self.body(try handler.answer("/v1/things?offset=99")).arrayValue == [])
    }

    @Test func aNestedCollectionIsOnePerParentWithUUIDsAndPages() throws {
        let handler = try Self.handler()
        var ids: [String] = []
        for number in 1...3 {
            let created = try handler.answer(
                "POST", "/v1/users/7/orders", headers: Self.json, body: #"{"item":"i\#(number)","quantity":1}"#)
            #expect(created.status == 201, "\(created.text)")
            let id = try #require(try Self.body(created)["orderId"]?.stringValue)
            #expect(FormatCheck.matches(id, format: "uuid"), "\(id)")
            #expect(created.header("Location") == "/v1/users/7/orders/\(id)")
            ids.append(id)
        }
        let listed = try Self.body(try handler.answer("/v1/users/7/orders?page=2&limit=2"))
        #expect(listed["total"] == 3)
        #expect(listed["items"]?.arrayValue?.map { $0["orderId"]?.stringValue } == [ids[2]])
        #expect(try Self.body(try handler.answer("/v1/users/8/orders"))["items"] == [])
        #expect(try handler.answer("/v1/users/8/orders/\(ids[0])").status == 404)
        #expect(try Self.body(try handler.answer("/v1/users/7/orders/\(ids[0])"))["item"] == "i1")
    }

    /// The store reads a path value decoded, as validation does once it has split it: `%37`
    /// is the user 7, not a user of its own.
    @Test func anEscapedParentValueIsStoredDecoded() throws {
        let handler = try Self.handler()
        let created = try handler.answer(
            "POST", "/v1/users/%37/orders", headers: Self.json, body: #"{"item":"i1","quantity":1}"#)
        #expect(created.status == 201, "\(created.text)")
        let id = try #require(try Self.body(created)["orderId"]?.stringValue)
        #expect(created.header("Location") == "/v1/users/7/orders/\(id)")
        #expect(try Self.body(try handler.answer("/v1/users/7/orders/\(id)"))["item"] == "i1")
        #expect(try Self.body(try handler.answer("/v1/users/%37/orders"))["total"] == 1)
    }

    /// A parent's value is percent-encoded in its collection's key (and so in `Location`): a
    /// value holding `/` names no other collection.
    @Test func aParentValueIsEncodedInTheCollectionKey() throws {
        let model = ResourceModel(contract: try Self.contract())
        let orders = try #require(model.collections.first { $0.path == "/users/{userId}/orders" })
        #expect(OpenAPIResponder.collectionKey(orders, ["userId": "a/b c"]) == "/users/a%2Fb%20c/orders")
        #expect(OpenAPIResponder.collectionKey(orders, ["userId": "7"]) == "/users/7/orders")
    }

    @Test func aStringIDIsTheSequenceWhenTheSchemaAcceptsIt() throws {
        let handler = try Self.handler()
        let created = try handler.answer("POST", "/v1/tags", headers: Self.json, body: #"{"label":"red"}"#)
        #expect(try Self.body(created)["slug"] == "1")
        #expect(try Self.body(try handler.answer("/v1/tags/1"))["label"] == "red")
    }

    @Test func operationsThatAreNotCRUDShapedAnswerAsWithoutState() throws {
        let handler = try Self.handler()
        let archived = try handler.answer("POST", "/v1/things/1/archive")
        #expect(archived.status == 200)
        let searched = try handler.answer("POST", "/v1/search", headers: Self.json, body: "{}")
        #expect(searched.status == 200)
        // A Prefer header asks for the document's answer, not the store's.
        let preferred = try handler.answer("/v1/things/99", headers: [("Prefer", "code=404")])
        #expect(preferred.status == 404)
    }

    @Test func driftVariantsApplyToStatefulAnswers() throws {
        let handler = try Self.handler()
        let drifted = try handler.answer("/v1/things/1", headers: [("X-Petmock-Variant", "missing:name")])
        let body = try Self.body(drifted)
        #expect(body["name"] == nil)
        #expect(body["id"] == 1)
        #expect(drifted.header("Petmock-Variant") == "missing:name")
    }

    @Test func adminListsGetsAndResetsTheState() throws {
        let handler = try Self.handler()
        _ = try handler.answer("POST", "/v1/things", headers: Self.json, body: #"{"name":"saw"}"#)
        _ = try handler.answer("POST", "/v1/users/7/orders", headers: Self.json, body: #"{"item":"x"}"#)
        let state = try Self.body(try handler.answer("/__admin/petmock/state"))
        #expect(state["stateful"] == true)
        #expect(state["collections"]?.arrayValue?.map { $0["collection"] } == ["/things", "/users/7/orders"])
        #expect(state["items"] == 4)
        let things = try Self.body(try handler.answer("/__admin/petmock/state/things"))
        #expect(things["total"] == 3)
        #expect(try handler.answer("/__admin/petmock/state/nothing").status == 404)
        // One collection back to the document's examples.
        #expect(try handler.answer("DELETE", "/__admin/petmock/state/things").status == 200)
        #expect(try Self.body(try handler.answer("/__admin/petmock/state/things"))["total"] == 2)
        #expect(try Self.body(try handler.answer("/__admin/petmock/state"))["items"] == 3)
        // Resetting the scenarios resets the state; so does the whole reset.
        _ = try handler.answer("POST", "/v1/things", headers: Self.json, body: #"{"name":"saw"}"#)
        #expect(try handler.answer("POST", "/__admin/scenarios/reset").status == 200)
        #expect(try Self.body(try handler.answer("/__admin/petmock/state"))["items"] == 2)
        _ = try handler.answer("POST", "/v1/users/1/orders", headers: Self.json, body: #"{"item":"x"}"#)
        #expect(try handler.answer("POST", "/__admin/reset").status == 200)
        #expect(try Self.body(try handler.answer("/__admin/petmock/state"))["items"] == 2)
        #expect(try handler.answer("DELETE", "/__admin/petmock/state").status == 200)
        // The operations say which are stateful.
        let operations = try Self.body(try handler.answer("/__admin/petmock/operations"))["operations"]?.arrayValue
        let roles = (operations ?? []).compactMap { operation in
            operation["stateful"].map { "\(operation["name"]?.stringValue ?? "") \($0["role"]?.stringValue ?? "")" }
        }
        #expect(
            roles == [
                "GET /things list", "POST /things create", "GET /things/{id} read", "PUT /things/{id} replace",
                "PATCH /things/{id} patch", "DELETE /things/{id} delete", "GET /users/{userId}/orders list",
                "POST /users/{userId}/orders create", "GET /users/{userId}/orders/{orderId} read",
                "POST /tags create", "GET /tags/{slug} read", "DELETE /tags/{slug} delete",
            ])
    }

    @Test func withoutStateTheAdminSaysSo() throws {
        let handler = try GeneratedStubsTests.handler(
            stubs: nil, fallback: OpenAPIResponder(contract: try Self.contract()))
        #expect(try Self.body(try handler.answer("/__admin/petmock/state"))["stateful"] == false)
        #expect(try handler.answer("/__admin/petmock/state/things").status == 404)
        // And a create answers as the document does, storing nothing.
        let created = try handler.answer("POST", "/v1/things", headers: Self.json, body: #"{"name":"saw"}"#)
        #expect(created.status == 201)
        #expect(created.header("Location") == nil)
    }

    @Test func aFullStoreRefusesWith507AndSaysSoOnce() throws {
        let lines = Locked<[String]>([])
        let handler = try Self.handler(limits: ResourceStore.Limits(collections: 2, items: 4, bytes: 1 << 20)) { line in
            lines.withLock { $0.append(line) }
        }
        // Two seeded, two more fit.
        for _ in 1...2 {
            #expect(try handler.answer("POST", "/v1/things", headers: Self.json, body: #"{"name":"a"}"#).status == 201)
        }
        for _ in 1...3 {
            let refused = try handler.answer("POST", "/v1/things", headers: Self.json, body: #"{"name":"a"}"#)
            #expect(refused.status == 507)
            #expect(refused.header("Content-Type") == "application/problem+json")
            #expect(
                try Self.body(refused)["detail"]?.stringValue?.hasPrefix("the store holds its limit of 4 resources")
                    == true)
        }
        #expect(lines.withLock { $0 }.count == 1)
        #expect(lines.withLock { $0 }.first?.contains("limit of 4 resources") == true)
        // Deleting makes room.
        #expect(try handler.answer("DELETE", "/v1/things/1").status == 204)
        #expect(try handler.answer("POST", "/v1/things", headers: Self.json, body: #"{"name":"a"}"#).status == 201)
    }

    @Test func aFullStoreRefusesNewCollections() throws {
        let handler = try Self.handler(limits: ResourceStore.Limits(collections: 2, items: 100, bytes: 1 << 20))
        // /things is seeded: one more collection fits.
        #expect(
            try handler.answer("POST", "/v1/users/1/orders", headers: Self.json, body: #"{"item":"x"}"#).status == 201)
        let refused = try handler.answer("POST", "/v1/users/2/orders", headers: Self.json, body: #"{"item":"x"}"#)
        #expect(refused.status == 507)
        #expect(
            try Self.body(refused)["detail"]?.stringValue?.hasPrefix("the store holds its limit of 2 collections")
                == true)
    }

    /// N clients × M creates: N×M resources, ids all distinct, nothing lost.
    @Test func concurrentCreatesLoseNothing() async throws {
        let handler = try Self.handler()
        let clients = 16
        let creates = 50
        let ids = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for client in 0..<clients {
                group.addTask {
                    var ids: [Int64] = []
                    for number in 0..<creates {
                        let created = try handler.answer(
                            "POST", "/v1/things", headers: Self.json, body: #"{"name":"c\#(client)-\#(number)"}"#)
                        ids.append(try #require(try Self.body(created)["id"]?.intValue))
                    }
                    return ids
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(ids.count == clients * creates)
        #expect(Set(ids).count == clients * creates)
        let state = try Self.body(try handler.answer("/__admin/petmock/state/things"))
        #expect(state["total"]?.intValue == Int64(clients * creates + 2))
    }

    /// Every id a create could take is taken: 409, a problem document naming the collection.
    @Test func aCreateWithNoFreeIDIsAConflict() throws {
        let responder = OpenAPIResponder(contract: try Self.contract(), stateful: true)
        let handler = try GeneratedStubsTests.handler(stubs: nil, fallback: responder)
        let store = try #require(responder.store)
        #expect(
            try store.insert(["id": .int(.max), "name": "last", "kind": "toy"], id: String(Int64.max), in: "/things"))
        let refused = try handler.answer("POST", "/v1/things", headers: Self.json, body: #"{"name":"saw"}"#)
        #expect(refused.status == 409, "\(refused.text)")
        #expect(refused.header("Content-Type") == "application/problem+json")
        let problem = try Self.body(refused)
        #expect(problem["type"] == "urn:petmock:problem:conflict")
        #expect(problem["detail"]?.stringValue?.contains("/things") == true)
    }

    struct BodyCase: CustomTestStringConvertible, Sendable {
        var method: String
        var path: String
        var contentType: String
        var body: String
        var status: Int
        var testDescription: String { "\(method) \(body)" }
    }

    /// Without request validation the store refuses what it cannot store: a body that is not
    /// JSON (400), or JSON that is not an object (422).
    @Test(arguments: [
        BodyCase(method: "POST", path: "/v1/things", contentType: "application/json", body: "{nope", status: 400),
        BodyCase(method: "POST", path: "/v1/things", contentType: "application/json", body: "[1]", status: 422),
        BodyCase(method: "PUT", path: "/v1/things/1", contentType: "application/json", body: "{nope", status: 400),
        BodyCase(method: "PUT", path: "/v1/things/1", contentType: "application/json", body: "7", status: 422),
        BodyCase(
            method: "PATCH", path: "/v1/things/1", contentType: "application/merge-patch+json", body: "{",
            status: 400),
        BodyCase(
            method: "PATCH", path: "/v1/things/1", contentType: "application/merge-patch+json", body: #""x""#,
            status: 422),
    ])
    func bodiesTheStoreCannotTakeAreRefused(_ test: BodyCase) throws {
        let responder = OpenAPIResponder(contract: try Self.contract(), validatesRequests: false, stateful: true)
        let handler = try GeneratedStubsTests.handler(stubs: nil, fallback: responder)
        let refused = try handler.answer(
            test.method, test.path, headers: [("Content-Type", test.contentType)], body: test.body)
        #expect(refused.status == test.status, "\(refused.text)")
        #expect(refused.header("Content-Type") == "application/problem+json")
        #expect(try Self.body(refused)["type"] == "urn:petmock:problem:invalid-body")
        // Nothing was stored or changed.
        #expect(responder.store?.summary().items == 2)
        #expect(responder.store?.value(id: "1", in: "/things")?["name"] == "hammer")
    }

    /// With request validation, the validator refuses first, and what it parsed is what is stored.
    @Test func validatedBodiesAreRefusedByTheValidatorAndStoredAsParsed() throws {
        let handler = try Self.handler()
        let malformed = try handler.answer("POST", "/v1/things", headers: Self.json, body: "{nope")
        #expect(malformed.status == 400)
        // The validator's 422, answered with the 400 the operation documents (as Prism does).
        let wrongKind = try handler.answer("POST", "/v1/things", headers: Self.json, body: #"{"name":7}"#)
        #expect(wrongKind.status == 400)
        #expect(wrongKind.header("Petmock-Violations")?.hasPrefix("1; body") == true, "\(wrongKind.headers)")
        let created = try handler.answer(
            "POST", "/v1/things", headers: Self.json, body: #"{"name":"saw","tags":["a","b"],"price":2.5}"#)
        #expect(created.status == 201)
        let read = try Self.body(try handler.answer("/v1/things/3"))
        #expect(read["tags"] == ["a", "b"])
        #expect(read["price"] == 2.5)
    }

    static let nestedDocument = #"""
        {"openapi": "3.1.0", "info": {"title": "orders", "version": "1"},
         "paths": {
          "/users/{userId}/orders": {
           "parameters": [{"name": "userId", "in": "path", "required": true, "schema": {"type": "integer"}}],
           "get": {"responses": {"200": {"description": "ok", "content": {"application/json": {
             "schema": {"type": "array", "items": {"$ref": "#/components/schemas/Order"}},
             "example": [{"id": 1, "userId": 7, "item": "tea"}, {"id": 2, "userId": 8, "item": "jam"},
                         {"id": 3, "userId": 7, "item": "bread"}, {"id": 4, "item": "lost"}, {"item": "no id"},
                         {"id": 1, "userId": 7, "item": "again"}]}}}}},
           "post": {"requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Order"}}}},
            "responses": {"201": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Order"}}}}}}},
          "/users/{userId}/orders/{id}": {
           "parameters": [{"name": "userId", "in": "path", "required": true, "schema": {"type": "integer"}},
                          {"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
           "get": {"responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Order"}}}}}}}},
         "components": {"schemas": {"Order": {"type": "object", "required": ["item"],
           "properties": {"id": {"type": "integer"}, "userId": {"type": "integer"}, "item": {"type": "string"}}}}}}
        """#

    /// A nested collection is seeded per parent value its examples give; the examples that give
    /// none, no id or an id already seeded are named, not dropped silently.
    @Test func aNestedCollectionIsSeededByItsExamplesParentValues() throws {
        let contract = try OpenAPIReader().read(json: Array(Self.nestedDocument.utf8), source: "orders.json")
        let responder = OpenAPIResponder(contract: contract, stateful: true)
        let handler = try GeneratedStubsTests.handler(stubs: nil, fallback: responder)
        let seven = try Self.body(try handler.answer("/users/7/orders"))
        #expect(seven.arrayValue?.map { $0["item"] } == ["tea", "bread"])
        #expect(try Self.body(try handler.answer("/users/8/orders/2"))["item"] == "jam")
        #expect(try handler.answer("/users/8/orders/1").status == 404)
        let problems = responder.seedProblems
        #expect(problems.count == 3, "\(problems)")
        #expect(problems.contains { $0.contains("example 3 (id '4') gives no 'userId'") }, "\(problems)")
        #expect(problems.contains { $0.contains("example 4 has no id") }, "\(problems)")
        #expect(problems.contains { $0.contains("/users/7/orders: the example with id '1' repeats an id") })
        // A new order follows the largest id its user's collection holds.
        let created = try handler.answer("POST", "/users/7/orders", headers: Self.json, body: #"{"item":"milk"}"#)
        #expect(try Self.body(created)["id"] == 4)
    }
}
