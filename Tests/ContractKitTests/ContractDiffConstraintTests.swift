import ContractKit
import Testing

/// `diff` of bounds, `oneOf`/`anyOf` branches and discriminator mappings, after oasdiff's
/// classes: stricter on the request side breaks clients that send, looser on the response side
/// breaks clients that read.
@Suite struct ContractDiffConstraintTests {
    let helper = ContractDiffRequestTests()

    func exchange(request: String, response: String) -> String {
        ##"{"/pets": {"post": {"requestBody": {"required": true, "content": {"application/json": {"schema": "##
            + request + ##"}}}, "responses": {"200": {"description": "ok", "content": {"application/json": "##
            + ##"{"schema": "## + response + "}}}}}}}"
    }

    func query(_ schema: String) -> String {
        ##"{"/pets": {"get": {"parameters": [{"name": "limit", "in": "query", "schema": "## + schema
            + ##"}], "responses": {"200": {"description": "ok"}}}}}"##
    }

    static let loose =
        ##"{"type": "object", "properties": {"age": {"type": "integer", "minimum": 0, "maximum": 30}, "name": {"type": "string", "maxLength": 40}}}"##
    static let strict =
        ##"{"type": "object", "properties": {"age": {"type": "integer", "minimum": 1, "maximum": 20}, "name": {"type": "string", "maxLength": 40, "pattern": "^[A-Z]"}}}"##

    @Test func requestBoundsTightenedBreak() throws {
        #expect(
            try helper.changes(
                old: exchange(request: Self.loose, response: "{}"), new: exchange(request: Self.strict, response: "{}"))
                == [
                    "request-body-bound-tightened|breaking|POST /pets|$.age",
                    "request-body-bound-tightened|breaking|POST /pets|$.name",
                ])
        // Loosened on a request: nothing breaks.
        #expect(
            try helper.changes(
                old: exchange(request: Self.strict, response: "{}"), new: exchange(request: Self.loose, response: "{}"))
                == [])
    }

    @Test func responseBoundsLoosenedBreak() throws {
        #expect(
            try helper.changes(
                old: exchange(request: "{}", response: Self.strict), new: exchange(request: "{}", response: Self.loose))
                == [
                    "response-property-bound-loosened|breaking|POST /pets|$.age",
                    "response-property-bound-loosened|breaking|POST /pets|$.name",
                ])
        #expect(
            try helper.changes(
                old: exchange(request: "{}", response: Self.loose), new: exchange(request: "{}", response: Self.strict))
                == [])
    }

    @Test func parameterBoundsTightenedBreak() throws {
        let old = query(##"{"type": "integer", "maximum": 100}"##)
        #expect(
            try helper.changes(old: old, new: query(##"{"type": "integer", "maximum": 50}"##)) == [
                "request-parameter-bound-tightened|breaking|GET /pets|query.limit"
            ])
        #expect(try helper.changes(old: old, new: query(##"{"type": "integer", "maximum": 500}"##)) == [])
        #expect(
            try helper.changes(old: old, new: query(##"{"type": "integer", "maximum": 100, "multipleOf": 10}"##)) == [
                "request-parameter-bound-tightened|breaking|GET /pets|query.limit"
            ])
    }

    static let cat = ##"{"type": "object", "properties": {"meow": {"type": "integer"}}}"##
    static let dog = ##"{"type": "object", "properties": {"bark": {"type": "boolean"}}}"##
    static let bird = ##"{"type": "string"}"##

    func union(_ branches: [String], _ keyword: String = "oneOf") -> String {
        "{\"\(keyword)\": [" + branches.joined(separator: ", ") + "]}"
    }

    @Test func branchesAddedToAResponseOrRemovedFromARequestBreak() throws {
        let two = union([Self.cat, Self.dog])
        let three = union([Self.cat, Self.dog, Self.bird])
        #expect(
            try helper.changes(old: exchange(request: two, response: two), new: exchange(request: two, response: three))
                == ["response-property-branch-added|breaking|POST /pets|$"])
        #expect(
            try helper.changes(old: exchange(request: three, response: two), new: exchange(request: two, response: two))
                == ["request-body-branch-removed|breaking|POST /pets|$"])
        // The other way round is harmless; so is anyOf written for oneOf with the same branches.
        #expect(
            try helper.changes(
                old: exchange(request: two, response: three), new: exchange(request: three, response: two))
                == [])
    }

    @Test func discriminatorMappingChanges() throws {
        let components = ##"{"Cat": \##(Self.cat), "Dog": \##(Self.dog), "Lion": \##(Self.cat)}"##
        func pets(_ mapping: String) -> String {
            ##"{"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}], "discriminator": {"propertyName": "kind", "mapping": {"##
                + mapping + "}}}"
        }
        let old = pets(##""cat": "Cat", "dog": "Dog""##)
        let moved = pets(##""cat": "Lion", "dog": "Dog""##)
        let added = pets(##""cat": "Cat", "dog": "Dog", "lion": "Lion""##)
        let removed = pets(##""cat": "Cat""##)
        func run(_ before: (String, String), _ after: (String, String)) throws -> [String] {
            try helper.changes(
                old: exchange(request: before.0, response: before.1),
                new: exchange(request: after.0, response: after.1),
                components: (components, components))
        }
        #expect(
            try run((old, old), (old, added)) == ["response-discriminator-mapping-changed|breaking|POST /pets|$"])
        #expect(try run((old, old), (added, old)) == [], "a request may name a new value")
        #expect(
            try run((old, old), (removed, old)) == ["request-body-discriminator-mapping-changed|breaking|POST /pets|$"])
        #expect(
            try run((old, old), (moved, moved)) == [
                "request-body-discriminator-mapping-changed|breaking|POST /pets|$",
                "response-discriminator-mapping-changed|breaking|POST /pets|$",
            ])
    }

    /// An array schema with `contains` and its counts (each nil when not written).
    static func tags(_ contains: String?, min: Int? = nil, max: Int? = nil) -> String {
        var members = [##""type": "array""##, ##""items": {"type": "string"}"##]
        if let contains { members.append(##""contains": "## + contains) }
        if let min { members.append(##""minContains": \##(min)"##) }
        if let max { members.append(##""maxContains": \##(max)"##) }
        return ##"{"type": "object", "properties": {"tags": {"## + members.joined(separator: ", ") + "}}}"
    }

    static let red = ##"{"const": "red"}"##
    static let anyString = ##"{"type": "string"}"##
    static let redOrNumber = ##"{"type": ["string", "integer"]}"##

    /// `contains`, `minContains` and `maxContains`: (old schema, new schema, findings when it is
    /// a request body, findings when it is a response body).
    static let containsRows: [(String, String, String, [String], [String])] = [
        ("contains added", tags(nil), tags(red), ["request-body-bound-tightened|breaking|POST /pets|$.tags"], []),
        ("contains removed", tags(red), tags(nil), [], ["response-property-bound-loosened|breaking|POST /pets|$.tags"]),
        (
            "minContains raised", tags(red), tags(red, min: 2),
            ["request-body-bound-tightened|breaking|POST /pets|$.tags"], []
        ),
        (
            "minContains lowered", tags(red, min: 2), tags(red, min: 1), [],
            ["response-property-bound-loosened|breaking|POST /pets|$.tags"]
        ),
        ("minContains 1 written", tags(red), tags(red, min: 1), [], []),
        (
            "maxContains set", tags(red), tags(red, max: 3),
            ["request-body-bound-tightened|breaking|POST /pets|$.tags"], []
        ),
        (
            "maxContains raised", tags(red, max: 3), tags(red, max: 5), [],
            ["response-property-bound-loosened|breaking|POST /pets|$.tags"]
        ),
        (
            "maxContains removed", tags(red, max: 3), tags(red), [],
            ["response-property-bound-loosened|breaking|POST /pets|$.tags"]
        ),
        ("unchanged", tags(red, min: 2, max: 3), tags(red, min: 2, max: 3), [], []),
        (
            "contains widened", tags(anyString), tags(redOrNumber), [],
            ["response-property-type-changed|breaking|POST /pets|$.tags[*]"]
        ),
        (
            "contains narrowed", tags(redOrNumber), tags(anyString),
            ["request-body-property-type-changed|breaking|POST /pets|$.tags[*]"], []
        ),
    ]

    @Test(arguments: containsRows)
    func containsAndItsCounts(
        row: String, old: String, new: String, request: [String], response: [String]
    ) throws {
        let asRequest = try helper.changes(
            old: exchange(request: old, response: "{}"), new: exchange(request: new, response: "{}"))
        #expect(asRequest == request, "\(row)")
        let asResponse = try helper.changes(
            old: exchange(request: "{}", response: old), new: exchange(request: "{}", response: new))
        #expect(asResponse == response, "\(row)")
    }

    @Test func aTightenedContainsSaysWhatChanged() throws {
        let old = try helper.contract(exchange(request: Self.tags(Self.red), response: "{}"))
        let new = try helper.contract(exchange(request: Self.tags(Self.red, min: 2, max: 4), response: "{}"))
        let finding = try #require(ContractDiff().changes(old: old, new: new).first)
        #expect(finding.actual == "minContains 1 → 2, maxContains none → 4")
    }
}
