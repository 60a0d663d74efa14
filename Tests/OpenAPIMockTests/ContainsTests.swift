import APISchema
import ContractKit
import JSONKit
import Testing

@testable import OpenAPIMock

/// `contains` with `minContains`/`maxContains`, read, written, merged, validated and generated;
/// the schema keywords still ignored, listed with their pointers.
@Suite struct ContainsTests {
    static func count(_ body: JSONValue, matching schema: Schema, in contract: Contract) -> Int {
        guard case .array(let elements) = body else { return -1 }
        let validator = SchemaConformance(contract: contract)
        return elements.count(where: { validator.accepts($0, schema) })
    }

    // MARK: contains: generation

    @Test(arguments: [
        (
            ##"{"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 9}, "contains": {"const": 7}}"##,
            1, Int.max
        ),
        (
            ##"{"type": "array", "items": {"type": "integer"}, "contains": {"minimum": 100}, "minContains": 3}"##, 3,
            Int.max
        ),
        (
            ##"{"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 50}, "contains": {"maximum": 60}, "maxContains": 1}"##,
            0, 1
        ),
        (
            ##"{"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 50}, "contains": {"maximum": 60}, "minContains": 2, "maxContains": 2, "minItems": 2}"##,
            2, 2
        ),
        (
            ##"{"type": "array", "uniqueItems": true, "items": {"type": "integer", "minimum": 0, "maximum": 20}, "contains": {"minimum": 10}, "minContains": 4, "maxItems": 5}"##,
            4, Int.max
        ),
        (
            ##"{"type": "array", "contains": {"type": "string", "format": "uuid"}, "minContains": 2, "maxItems": 2}"##,
            2, Int.max
        ),
        (
            ##"{"type": "array", "prefixItems": [{"type": "boolean"}], "items": {"type": "string"}, "contains": {"type": "boolean"}, "maxContains": 1, "minItems": 3}"##,
            1, 1
        ),
        (
            ##"{"type": "array", "items": {"type": "integer"}, "contains": {"$ref": "#/components/schemas/Small"}, "minContains": 0, "maxContains": 0}"##,
            0, 0
        ),
        (
            ##"{"type": "array", "items": {"type": "integer"}, "contains": {"$ref": "#/components/schemas/Small"}}"##,
            1, Int.max
        ),
        (
            ##"{"allOf": [{"type": "array", "items": {"type": "integer"}}, {"contains": {"const": 3}, "minContains": 2}]}"##,
            2, Int.max
        ),
        (
            ##"{"type": "object", "required": ["tags"], "properties": {"tags": {"type": "array", "items": {"type": "string"}, "contains": {"enum": ["urgent"]}}}}"##,
            -1, Int.max
        ),
    ])
    func containsIsGeneratedWithinTheArraysBounds(schema: String, low: Int, high: Int) throws {
        let components = ##"{"Small": {"type": "integer", "maximum": 3}}"##
        let document = try SchemaDocument(schema, components: components)
        for number in [nil, 1, 2, 3] as [UInt64?] {
            let result = GeneratedBody.make(
                for: document.schema, in: document.contract, seed: GeneratedBody.Seed(key: "k", number: number))
            let body = try result.get()
            let errors = SchemaConformance(contract: document.contract).errors(body, document.schema)
            #expect(errors.isEmpty, "\(schema) → \(body.serialized()): \(errors)")
            guard low >= 0 else { continue }
            let flat = document.contract.flattened(document.schema)
            let contains = try #require(flat.contains)
            let found = Self.count(body, matching: contains, in: document.contract)
            #expect(found >= low && found <= high, "\(schema) → \(body.serialized())")
        }
    }

    @Test(arguments: [
        (##"{"type": "array", "items": {"type": "integer"}, "contains": {"type": "string"}}"##, "contains"),
        (##"{"type": "array", "contains": {"type": "integer"}, "minContains": 3, "maxItems": 2}"##, "minContains 3"),
        (##"{"type": "array", "contains": {"type": "integer"}, "minContains": 3, "maxContains": 2}"##, "maxContains"),
        (##"{"type": "array", "contains": {"type": "integer"}, "minContains": 2000000}"##, "minContains"),
        (
            ##"{"type": "array", "uniqueItems": true, "items": {"type": "integer"}, "contains": {"const": 1}, "minContains": 2}"##,
            "contains"
        ),
        (
            ##"{"type": "array", "items": {"type": "integer"}, "contains": true, "maxContains": 0, "minItems": 1}"##,
            "maxContains 0"
        ),
        (
            ##"{"type": "array", "items": {"type": "integer"}, "contains": true, "minContains": 0, "maxContains": 0, "minItems": 1}"##,
            "contains"
        ),
    ])
    func anImpossibleContainsIsRefused(schema: String, word: String) throws {
        let document = try SchemaDocument(schema)
        let result = GeneratedBody.make(for: document.schema, in: document.contract, seed: GeneratedBody.Seed(key: "k"))
        guard case .failure(let refusal) = result else {
            Issue.record("\(schema) gave a body")
            return
        }
        #expect(refusal.reason.contains(word), "\(refusal.reason)")
    }

    // MARK: contains: validation

    @Test(arguments: [
        (##"{"type": "array", "contains": {"type": "integer"}}"##, "[1, \"a\"]", true),
        (##"{"type": "array", "contains": {"type": "integer"}}"##, "[\"a\"]", false),
        (##"{"type": "array", "contains": {"type": "integer"}}"##, "[]", false),
        (##"{"type": "array", "contains": {"type": "integer"}, "minContains": 0}"##, "[]", true),
        (##"{"type": "array", "contains": {"type": "integer"}, "minContains": 2}"##, "[1, \"a\", 2]", true),
        (##"{"type": "array", "contains": {"type": "integer"}, "minContains": 2}"##, "[1, \"a\"]", false),
        (##"{"type": "array", "contains": {"type": "integer"}, "maxContains": 1}"##, "[1, 2]", false),
        (##"{"type": "array", "contains": {"type": "integer"}, "minContains": 0, "maxContains": 0}"##, "[\"a\"]", true),
        (##"{"type": "array", "minContains": 2, "maxContains": 0}"##, "[1]", true),
        (##"{"type": "array", "contains": {"$ref": "#/components/schemas/Small"}}"##, "[9, 2]", true),
        (##"{"type": "array", "contains": {"$ref": "#/components/schemas/Small"}}"##, "[9, 8]", false),
        (##"{"contains": {"const": 1}}"##, "\"not an array\"", true),
        (##"{"allOf": [{"contains": {"const": 1}}, {"maxItems": 3}]}"##, "[2, 3]", false),
    ])
    func containsIsValidated(schema: String, body: String, valid: Bool) throws {
        let document = try SchemaDocument(schema, components: ##"{"Small": {"type": "integer", "maximum": 3}}"##)
        let value = try JSONValue(parsing: Array(body.utf8))
        let errors = SchemaConformance(contract: document.contract).errors(value, document.schema)
        #expect(errors.isEmpty == valid, "\(schema) \(body): \(errors)")
    }

    @Test func aContainsFindingNamesThePathAndTheCounts() throws {
        let schema = ##"""
            {"type": "object", "properties": {"tags": {"type": "array", "contains": {"const": "urgent"},
             "minContains": 2, "maxContains": 3}}}
            """##
        let document = try SchemaDocument(schema)
        let validator = SchemaConformance(contract: document.contract)
        let few = try JSONValue(parsing: Array(##"{"tags": ["urgent", "low"]}"##.utf8))
        let error = try #require(validator.errors(few, document.schema).first)
        #expect(error.contains("tags"), "\(error)")
        #expect(error.contains("2 to 3") && error.contains("1"), "\(error)")
        let many = try JSONValue(parsing: Array(##"{"tags": ["urgent", "urgent", "urgent", "urgent"]}"##.utf8))
        let tooMany = try #require(validator.errors(many, document.schema).first)
        #expect(tooMany.contains("more than 3"), "\(tooMany)")
    }

    // MARK: contains: reading, writing, allOf

    @Test func containsIsReadWrittenAndReadAgain() throws {
        let schema =
            ##"{"type": "array", "contains": {"$ref": "#/components/schemas/Small"}, "minContains": 2, "maxContains": 4}"##
        let document = try SchemaDocument(schema, components: ##"{"Small": {"type": "integer", "maximum": 3}}"##)
        #expect(document.schema.contains == Schema.reference(toComponent: "Small"))
        #expect(document.schema.limits.minContains == 2 && document.schema.limits.maxContains == 4)
        let written = OpenAPIWriter().schema(document.schema)
        guard case .object(let object) = written else { throw SchemaDocument.Missing() }
        #expect(object["contains"] == ["$ref": "#/components/schemas/Small"])
        #expect(object["minContains"] == 2 && object["maxContains"] == 4)
        let again = try SchemaDocument(written.serialized(), components: ##"{"Small": {"type": "integer"}}"##)
        #expect(again.schema == document.schema)
    }

    @Test func aContainsReferenceToNothingIsAnError() {
        #expect(throws: ContractError.self) {
            _ = try SchemaDocument(##"{"type": "array", "contains": {"$ref": "#/components/schemas/Nope"}}"##)
        }
    }

    @Test func allOfKeepsEachContainsWithItsCounts() {
        var first = Schema(types: [.array])
        first.contains = Schema(types: [.integer])
        first.limits.minContains = 2
        var second = Schema()
        second.limits.maxContains = 1  // without `contains`: says nothing
        #expect(first.merged(with: second).limits.maxContains == nil)
        #expect(second.merged(with: first).contains == first.contains)
        #expect(second.merged(with: first).limits.minContains == 2)
        #expect(second.merged(with: first).limits.maxContains == nil)
        var same = Schema()
        same.contains = Schema(types: [.integer])
        same.limits.maxContains = 5
        let both = first.merged(with: same)
        #expect(both.limits.minContains == 2 && both.limits.maxContains == 5)
    }

    // MARK: keywords not supported

    @Test func unsupportedKeywordsAreListedWithTheirPointers() throws {
        let schema = ##"""
            {"type": "object", "patternProperties": {"^x-": {"type": "string"}},
             "properties": {"a/b": {"type": "string", "propertyNames": {"maxLength": 3}}},
             "if": {"required": ["a"]}, "then": {"required": ["b"]}, "dependentRequired": {"a": ["b"]},
             "unevaluatedProperties": false}
            """##
        let document = try SchemaDocument(schema)
        let lines = document.contract.ignoredKeywords
        let pointer = "#/paths/~1x/get/responses/200/content/application~1json/schema"
        #expect(lines.contains { $0.contains("'patternProperties' at \(pointer)/patternProperties") }, "\(lines)")
        #expect(lines.contains { $0.contains("'propertyNames' at \(pointer)/properties/a~1b/propertyNames") })
        #expect(lines.contains { $0.contains("'if/then/else' at \(pointer)/if") })
        #expect(lines.contains { $0.contains("'dependentRequired'") })
        #expect(lines.contains { $0.contains("'unevaluatedProperties'") })
        #expect(try SchemaDocument(##"{"type": "array", "contains": {}}"##).contract.ignoredKeywords.isEmpty)
    }

    @Test func nestedContainsIsCheckedInBoundedTime() throws {
        let components =
            ##"{"Node": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}, "contains": {"$ref": "#/components/schemas/Node"}, "minContains": 0, "maxContains": 5}}"##
        let document = try SchemaDocument(##"{"$ref": "#/components/schemas/Node"}"##, components: components)
        var body = JSONValue.array([])
        for _ in 0..<60 { body = .array([body]) }
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            // A contract check (no step budget) and a JSON Schema check.
            var plan = ValidationPlan(contract: document.contract)
            let node = plan.compile(document.schema)
            var walker = BodyWalker(rootSwift: nil)
            walker.walk(body, node)
            _ = PlanGraph(plan.nodes)
            _ = SchemaConformance(contract: document.contract).errors(body, document.schema)
        }
        #expect(elapsed < .seconds(10))
    }
}
