import HTTPCore
import JSONKit
import Testing

@testable import MockEngine
@testable import StubFormat
@testable import StubServerKit

/// JSON drifts as values: by key and by JSONPath, and the misses that make a variant a 400
/// instead of the unchanged body.
@Suite struct DriftAddressingTests {
    static let body: JSONValue = [
        "owner": ["id": 7, "login": "kim"],
        "items": [["name": "Rex", "vetId": 1], ["name": "Bo", "vetId": nil]],
        "total": 2,
    ]

    /// Each drift with the body it makes, as compact JSON.
    static let drifts: [(String, String)] = [
        ("missing:vetId", #"{"owner":{"id":7,"login":"kim"},"items":[{"name":"Rex"},{"name":"Bo"}],"total":2}"#),
        (
            "missing:$.items[0].vetId",
            #"{"owner":{"id":7,"login":"kim"},"items":[{"name":"Rex"},{"name":"Bo","vetId":null}],"total":2}"#
        ),
        ("missing:$.items[-1]", #"{"owner":{"id":7,"login":"kim"},"items":[{"name":"Rex","vetId":1}],"total":2}"#),
        (
            "missing:$..id",
            #"{"owner":{"login":"kim"},"items":[{"name":"Rex","vetId":1},{"name":"Bo","vetId":null}],"total":2}"#
        ),
        (
            "null:name",
            #"{"owner":{"id":7,"login":"kim"},"items":[{"name":null,"vetId":1},{"name":null,"vetId":null}],"total":2}"#
        ),
        (
            "null:$.items[*].name",
            #"{"owner":{"id":7,"login":"kim"},"items":[{"name":null,"vetId":1},{"name":null,"vetId":null}],"total":2}"#
        ),
        (
            "null:$.items[1].name",
            #"{"owner":{"id":7,"login":"kim"},"items":[{"name":"Rex","vetId":1},{"name":null,"vetId":null}],"total":2}"#
        ),
        (
            "type:id",
            #"{"owner":{"id":"7","login":"kim"},"items":[{"name":"Rex","vetId":1},{"name":"Bo","vetId":null}],"total":2}"#
        ),
        (
            "type:$.owner.id",
            #"{"owner":{"id":"7","login":"kim"},"items":[{"name":"Rex","vetId":1},{"name":"Bo","vetId":null}],"total":2}"#
        ),
        (
            "type:$.items",
            #"{"owner":{"id":7,"login":"kim"},"items":{"items":[{"name":"Rex","vetId":1},{"name":"Bo","vetId":null}]},"#
                + #""total":2}"#
        ),
        (
            "rename:login=user",
            #"{"owner":{"id":7,"user":"kim"},"items":[{"name":"Rex","vetId":1},{"name":"Bo","vetId":null}],"total":2}"#
        ),
        (
            "rename:$.owner.login=user",
            #"{"owner":{"id":7,"user":"kim"},"items":[{"name":"Rex","vetId":1},{"name":"Bo","vetId":null}],"total":2}"#
        ),
        (
            "rename:$.items[?(@.name == 'Rex')].vetId=vet_id",
            #"{"owner":{"id":7,"login":"kim"},"items":[{"name":"Rex","vet_id":1},{"name":"Bo","vetId":null}],"total":2}"#
        ),
    ]

    @Test(arguments: drifts)
    func driftsByKeyAndByJSONPath(_ name: String, _ expected: String) throws {
        let drifted = try DriftGenerator.drift(Self.body, try Variant(name))
        #expect(drifted.serialized() == expected)
    }

    @Test func aJSONPathDriftChangesInnerPlacesFirst() throws {
        let body: JSONValue = ["a": ["b": 1]]
        #expect(try DriftGenerator.drift(body, try Variant("type:$..*")) == ["a": [["b": "1"]]])
        #expect(try DriftGenerator.drift(body, try Variant("null:$")) == nil)
    }

    static let misses: [(String, String)] = [
        ("missing:fulname", "no JSON object in the response has the field 'fulname'"),
        ("type:owner.id", "no JSON object in the response has the field 'owner.id'"),
        ("type:$.owner.nope", "the JSONPath $.owner.nope selects nothing in the response"),
        ("null:$.items[5]", "the JSONPath $.items[5] selects nothing in the response"),
        ("missing:$.items[?(@.vetId > 5)]", "selects nothing"),
        ("rename:$.items[0]=pet", "selects $.items[0], not an object member"),
        ("missing:$", "selects the whole body"),
    ]

    @Test(arguments: misses)
    func aDriftThatChangesNothingIsAMissNamingTheFields(_ name: String, _ reason: String) throws {
        let variant = try Variant(name)
        #expect {
            _ = try DriftGenerator.drift(Self.body, variant)
        } throws: { error in
            guard let miss = error as? DriftGenerator.Miss else { return false }
            return miss.reason.contains(reason)
                && miss.knownFields == ["id", "items", "login", "name", "owner", "total", "vetId"]
        }
    }

    @Test func theRefusalIsAVariantErrorListingTheFields() throws {
        let served = StubCompiler.prepare(Self.mapping(.json(Self.body)), body: Self.body.serializedBytes())
        let refusal = try #require(
            DriftGenerator.refusal(of: try Variant("missing:fulname"), named: "missing:fulname", for: served))
        #expect(refusal.knownFields == ["id", "items", "login", "name", "owner", "total", "vetId"])
        #expect(
            refusal.description
                == "Variant 'missing:fulname' does not apply: no JSON object in the response has the field "
                + "'fulname'. Known fields: id, items, login, name, owner, total, vetId")
        #expect(DriftGenerator.refusal(of: try Variant("missing:login"), named: "missing:login", for: served) == nil)
        #expect(DriftGenerator.refusal(of: .truncated, named: "truncated", for: served) == nil)
    }

    @Test func aBodyThatIsNotJSONIsRefused() throws {
        let html = Array("<html>nope</html>".utf8)
        var mapping = Self.mapping(.text("<html>nope</html>"))
        mapping.response.headers = ["Content-Type": "text/html"]
        let served = StubCompiler.prepare(mapping, body: html)
        let variant = try Variant("null:name")
        let answer = DriftGenerator.apply(variant, to: served, stub: mapping)
        #expect(DriftGenerator.isUnchanged(answer, from: served), "left alone, as a server-wide variant needs")
        let refusal = try #require(DriftGenerator.refusal(of: variant, named: "null:name", for: served))
        #expect(refusal.reason == "the response body is not JSON (text/html)")
        #expect(refusal.knownFields == [])
        let empty = StubCompiler.prepare(Self.mapping(.none), body: [])
        #expect(
            DriftGenerator.refusal(of: variant, named: "null:name", for: empty)?.reason == "the response has no body")
    }

    @Test func anAppliedDriftIsANewAnswerWithItsHeader() throws {
        let mapping = Self.mapping(.json(Self.body))
        let served = StubCompiler.prepare(mapping, body: Self.body.serializedBytes())
        let answer = DriftGenerator.apply(try Variant("missing:$.owner"), to: served, stub: mapping)
        #expect(!DriftGenerator.isUnchanged(answer, from: served))
        guard case .prepared(let prepared, _, _) = answer else {
            Issue.record("expected a response")
            return
        }
        #expect(prepared.response.headers.first(name: "Petmock-Variant") == "missing:$.owner")
        #expect(try JSONValue(parsing: prepared.response.body)["owner"] == nil)
    }

    @Test func manyKnownFieldsAreCapped() {
        let fields = (1...45).map { "field\($0)" }.sorted()
        let error = VariantError(name: "missing:x", reason: "r", knownFields: fields)
        #expect(error.description.hasSuffix(", \(fields[29]) and 15 more"))
        #expect(!error.description.contains(fields[30]))
    }

    @Test func variantsParseKeysAndJSONPaths() throws {
        #expect(try Variant("missing:vetId") == .missing(.key("vetId")))
        #expect(try Variant("missing:$[0].vetId") == .missing(.path(try JSONPath("$[0].vetId"))))
        #expect(try Variant("null:$.items[*].name") == .null(.path(try JSONPath("$.items[*].name"))))
        #expect(try Variant("type:$.owner.id") == .type(.path(try JSONPath("$.owner.id"))))
        #expect(try Variant("rename:$.owner.login=user") == .rename(.path(try JSONPath("$.owner.login")), to: "user"))
        #expect(try Variant("rename:a=b=c") == .rename("a", to: "b=c"), "a key's new name may hold '='")
        #expect(try Variant("type:$['owner'].id").description == "type:$.owner.id")
        #expect(try Variant("missing:$['$ref']") == .missing(.path(JSONPath(components: [.key("$ref")]))))
        #expect {
            _ = try Variant("type:$.owner[")
        } throws: { error in
            guard let error = error as? VariantError else { return false }
            return error.reason.hasPrefix("invalid JSONPath: JSONPath '$.owner[' at offset 8: expected")
        }
        #expect(throws: VariantError.self) { try Variant("rename:$.owner.login") }
    }

    @Test func theCatalogSaysHowFieldsAreAddressed() {
        let catalog = VariantCatalog(mappings: [Self.mapping(.json(Self.body))])
        #expect(catalog.jsonFields == ["id", "items", "login", "name", "owner", "total", "vetId"])
        #expect(catalog.description.contains("or a JSONPath starting with '$': only the places it selects"))
        #expect(catalog.json["fieldAddressing"]?.stringValue?.contains("400 listing the response's fields") == true)
        #expect(catalog.json["generated"]?.arrayValue?.count == Variant.generatedForms.count)
    }

    static func mapping(_ body: ResponseBody) -> StubMapping {
        StubMapping(
            id: "00000000-0000-4000-8000-0000000000d1", request: RequestPattern(method: .get, url: .urlPath("/d")),
            response: ResponseDefinition(headers: ["Content-Type": "application/json"], body: body))
    }
}
