import APISchema
import JSONKit
import Testing

@testable import OpenAPIMock

/// `oneOf`s whose branches overlap (a value of one is valid against another) are generated as a
/// value exactly one branch accepts; branches that accept the same values are refused.
@Suite struct OverlappingOneOfTests {
    static let overlapping = [
        ##"{"oneOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "object", "properties": {"b": {"type": "integer"}}}]}"##,
        ##"{"oneOf": [{"type": "string", "maxLength": 5}, {"type": "string", "maxLength": 10}]}"##,
        ##"{"oneOf": [{"type": "string", "minLength": 2}, {"type": "string", "minLength": 4}]}"##,
        ##"{"oneOf": [{"type": "integer", "maximum": 10}, {"type": "integer", "maximum": 20}]}"##,
        ##"{"oneOf": [{"type": "integer", "minimum": 0}, {"type": "number", "minimum": 0}]}"##,
        ##"{"oneOf": [{"type": "object"}, {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}}}]}"##,
        ##"{"oneOf": [{"type": "object", "required": ["id"]}, {"type": "object", "required": ["id", "name"]}]}"##,
        ##"{"oneOf": [{"type": "object", "properties": {"id": {"type": "string"}}}, {"type": "object", "properties": {"id": {"type": "string"}}, "additionalProperties": false}]}"##,
        ##"{"oneOf": [{"enum": ["a", "b"]}, {"enum": ["a", "c"]}]}"##,
        ##"{"oneOf": [{"type": "string"}, {"type": "string", "format": "uuid"}]}"##,
        ##"{"oneOf": [{"type": "array", "items": {"type": "integer"}}, {"type": "array", "maxItems": 1}]}"##,
        ##"{"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Pet"}]}"##,
        ##"{"type": "object", "required": ["kind"], "properties": {"kind": {"type": "string"}}, "oneOf": [{"properties": {"a": {"type": "string"}}}, {"properties": {"b": {"type": "string"}}}]}"##,
    ]

    static let animals = ##"""
        {"Cat": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}, "meows": {"type": "boolean"}}},
         "Pet": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}}
        """##

    @Test(arguments: overlapping)
    func anOverlappingOneOfGivesAValueOfExactlyOneBranch(schema: String) throws {
        let document = try SchemaDocument(schema, components: Self.animals)
        let validator = SchemaConformance(contract: document.contract)
        var own = document.schema
        own.anyOf = []
        own.branchesExclusive = false
        for number in [nil, 1, 2, 3, 4] as [UInt64?] {
            let result = GeneratedBody.make(
                for: document.schema, in: document.contract, seed: GeneratedBody.Seed(key: "k", number: number))
            let body = try result.get()
            #expect(validator.errors(body, document.schema).isEmpty, "\(schema) → \(body.serialized())")
            let matching = document.schema.anyOf.filter { branch in
                var combined = own
                combined.allOf = [branch]
                return validator.accepts(body, combined)
            }
            #expect(matching.count == 1, "\(schema) → \(body.serialized()) matches \(matching.count) branches")
        }
    }

    @Test(arguments: [
        ##"{"oneOf": [{"type": "string"}, {"type": "string"}]}"##,
        ##"{"oneOf": [{"type": "integer", "minimum": 0, "maximum": 5}, {"type": "integer", "minimum": 0, "maximum": 5, "multipleOf": 1}]}"##,
    ])
    func aOneOfWithNoExclusiveValueIsRefused(schema: String) throws {
        let document = try SchemaDocument(schema)
        let result = GeneratedBody.make(for: document.schema, in: document.contract, seed: GeneratedBody.Seed(key: "k"))
        guard case .failure(let refusal) = result else {
            Issue.record("\(schema) gave a body")
            return
        }
        #expect(refusal.reason.contains("oneOf"), "\(refusal.reason)")
    }
}
