import HTTPCore
import HTTPServerKit
import JSONKit
import TestSupport
import Testing

@testable import MockEngine
@testable import StubFormat
@testable import StubServerKit

/// The generated drift variants as the server answers them (the slow and fault ones on a socket).
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
            "missing:$.pets[0].vetId",
            ["pets": [["name": "Rex", "vet": ["vetId": 2, "title": "DVM"]], ["name": "Bo"]]]
        ),
        (
            "rename:$.pets[*].vet.vetId=id",
            ["pets": [["name": "Rex", "vetId": 1, "vet": ["id": 2, "title": "DVM"]], ["name": "Bo"]]]
        ),
    ]

    @Test(arguments: drifts)
    func jsonDriftAppliesToEveryObject(_ variant: String, _ expected: JSONValue) throws {
        let server = try makeServer(mappings: [Self.nested])
        let response = try server.answer("/nested", headers: [("X-Petmock-Variant", variant)])
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
        let server = try makeServer(mappings: [named])
        let response = try server.answer("/nested", headers: [("X-Petmock-Variant", variant)])
        #expect(response.headers["Matched-Stub-Id"] == named.id)
        #expect(response.headers["Matched-Stub-Name"] == "nested pets")
        #expect(response.headers["Petmock-Variant"] == variant, "every generated answer says which variant made it")
    }

    static let plain = StubMapping(
        id: "00000000-0000-4000-8000-000000000002",
        request: RequestPattern(method: .get, url: .urlPath("/plain")),
        response: ResponseDefinition(headers: ["Content-Type": "application/json"], body: .json(["title": "DVM"])))

    static let page = StubMapping(
        id: "00000000-0000-4000-8000-000000000003",
        request: RequestPattern(method: .get, url: .urlPath("/page")),
        response: ResponseDefinition(headers: ["Content-Type": "text/html"], body: .text("<p>vetId</p>")))

    @Test(arguments: [
        ("missing:fulname", "no JSON object in the response has the field 'fulname'"),
        ("type:vet.vetId", "no JSON object in the response has the field 'vet.vetId'"),
        ("null:$.pets[2]", "the JSONPath $.pets[2] selects nothing in the response"),
        ("rename:$.owner.login=user", "the JSONPath $.owner.login selects nothing in the response"),
    ])
    func aDriftTheResponseCannotTakeIsA400ListingItsFields(_ variant: String, _ reason: String) throws {
        let server = try makeServer(mappings: [Self.nested])
        let text = try server.answer("/nested", headers: [("X-Petmock-Variant", variant)])
        #expect(text.status == 400)
        #expect(
            text.text == "Variant '\(variant)' does not apply: \(reason). Known fields: name, pets, title, vet, vetId\n"
        )
        let json = try server.answer(
            "/nested", headers: [("X-Petmock-Variant", variant), ("Accept", "application/json")])
        #expect(json.status == 400 && json.json["code"] == 400)
        #expect(json.json["knownFields"] == ["name", "pets", "title", "vet", "vetId"])
        #expect(json.json["message"]?.stringValue?.hasPrefix("Variant '\(variant)' does not apply") == true)
        let logged = server.admin.requests().first
        #expect(logged?.responseStatus == 400 && logged?.variant == variant)
    }

    @Test func aFieldDriftOnABodyThatIsNotJSONIsA400() throws {
        let server = try makeServer(mappings: [Self.page])
        let response = try server.answer("/page", headers: [("Prefer", "example=missing:vetId")])
        #expect(response.status == 400)
        #expect(response.text.contains("does not apply: the response body is not JSON (text/html)"))
        #expect(try server.answer("/page", headers: [("X-Petmock-Variant", "truncated")]).status == 200)
    }

    @Test func anInvalidJSONPathIsA400WithTheParseError() throws {
        let server = try makeServer(mappings: [Self.nested])
        let response = try server.answer("/nested", headers: [("X-Petmock-Variant", "type:$.pets[")])
        #expect(response.status == 400)
        #expect(
            response.text.contains("Unknown variant 'type:$.pets[': invalid JSONPath: JSONPath '$.pets[' at offset 7"))
        let admin = try server.answer("PUT", "/__admin/petmock/variant", body: #"{"variant": "null:$..["}"#)
        #expect(admin.status == 400)
        #expect(admin.json["errors"]?[0]?["title"]?.stringValue?.contains("invalid JSONPath") == true, "\(admin.text)")
        #expect(throws: StubServerError.self) {
            _ = try StubServer(mappings: [Self.nested], configuration: StubServerConfiguration(variant: "null:$["))
        }
    }

    @Test func aServerWideDriftAppliesWhereTheFieldIsAndLeavesTheRestAlone() throws {
        let server = try makeServer(mappings: [Self.nested, Self.plain, Self.page])
        #expect(
            try server.answer("PUT", "/__admin/petmock/variant", body: #"{"variant": "missing:vetId"}"#).status == 200)
        let nested = try server.answer("/nested")
        #expect(nested.json["pets"]?[0]?["vetId"] == nil && nested.headers["Petmock-Variant"] == "missing:vetId")
        let plain = try server.answer("/plain")
        #expect(plain.status == 200 && plain.json == ["title": "DVM"])
        #expect(plain.headers["Petmock-Variant"] == nil, "no header claims a drift that was not made")
        #expect(try server.answer("/page").text == "<p>vetId</p>")
        let perRequest = try server.answer("/plain", headers: [("X-Petmock-Variant", "missing:vetId")])
        #expect(perRequest.status == 400, "asked for by name, the same drift is strict")
    }

    @Test(arguments: [
        ("missing:fulname", "no base stub's JSON body has the field 'fulname'"),
        (
            "type:$.owner.id",
            "the JSONPath $.owner.id selects nothing this drift can change in any base stub's JSON body"
        ),
    ])
    func aServerWideDriftNoStubCanTakeIsRefused(_ variant: String, _ reason: String) throws {
        let server = try makeServer(mappings: [Self.nested, Self.plain, Self.page])
        let refused = try server.answer("PUT", "/__admin/petmock/variant", body: #"{"variant": "\#(variant)"}"#)
        #expect(refused.status == 400)
        #expect(refused.json["knownFields"] == ["name", "pets", "title", "vet", "vetId"])
        let message = refused.json["errors"]?[0]?["title"]?.stringValue
        #expect(
            message == "Variant '\(variant)' does not apply: \(reason). Known fields: name, pets, title, vet, vetId")
        #expect(try server.answer("/__admin/petmock/variant").json["variant"] == .null)
        #expect(throws: VariantError.self) { try server.admin.setVariant(variant) }
        #expect {
            _ = try StubServer(mappings: [Self.nested], configuration: StubServerConfiguration(variant: variant))
        } throws: { error in
            guard case .setup(.variant(let error))? = error as? StubServerError else { return false }
            return error.knownFields == ["name", "pets", "title", "vet", "vetId"]
        }
        try server.admin.setVariant("type:$.pets[1].name")
        #expect(try server.answer("/nested").json["pets"]?[1]?["name"] == 0)
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
        let server = try makeServer(stubs: Fixtures.stubs)
        let base = try server.answer("/api/pets")
        let truncated = try server.answer("/api/pets", headers: [("X-Petmock-Variant", "truncated")])
        #expect(truncated.status == 200 && truncated.body == Array(base.body.prefix(base.body.count / 2)))
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: truncated.body) }
        let empty = try server.answer("/api/pets", headers: [("Prefer", "example=empty")])
        #expect(empty.status == 200 && empty.body.isEmpty && empty.headers["Content-Type"] == "application/json")
        let html = try server.answer("/api/vets/1", headers: [("X-Petmock-Variant", "html-error")])
        #expect(html.status == 502 && html.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(html.text.contains("502 Bad Gateway"))
    }

    @Test func slowAndResetGenerated() throws {
        let server = try makeServer(stubs: Fixtures.stubs)
        let slowly = [("X-Petmock-Variant", "slow:300")]
        #expect(server.reply("/api/vets/1", headers: slowly).fixedDelay == .milliseconds(300))
        #expect(try server.answer("/api/vets/1", headers: slowly).json["firstName"] == "Ann")
        #expect(server.reply("/api/vets/1", headers: [("X-Petmock-Variant", "reset")]).fault() == .connectionReset)
    }

    @Test func variantsAreCachedAndDoNotTouchTheBase() throws {
        let server = try makeServer(mappings: [Self.nested])
        let first = try server.answer("/nested", headers: [("X-Petmock-Variant", "missing:name")])
        let second = try server.answer("/nested", headers: [("X-Petmock-Variant", "missing:name")])
        #expect(first.body == second.body)
        #expect(try server.answer("/nested").json[path: "pets"]?[0]?["name"] == "Rex")
    }
}

extension JSONValue {
    fileprivate subscript(path key: String) -> JSONValue? { self[key] }
}
