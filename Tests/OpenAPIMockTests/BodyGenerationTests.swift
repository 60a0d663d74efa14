import APISchema
import JSONKit
import Testing

@testable import OpenAPIMock

/// Each keyword generation honours gives a body the validator accepts, and the ones it cannot
/// satisfy give a refusal naming why.
@Suite struct BodyGenerationTests {
    static let pets = """
        {"Cat": {"type": "object", "required": ["petType", "meows"],
                 "properties": {"petType": {"type": "string"}, "meows": {"type": "boolean"}}},
         "Dog": {"type": "object", "required": ["petType", "barks"],
                 "properties": {"petType": {"type": "string"}, "barks": {"type": "integer", "minimum": 1}}},
         "Base": {"type": "object", "required": ["id"], "properties": {"id": {"type": "string", "format": "uuid"}}},
         "Node": {"type": "object", "required": ["name"],
                  "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}}}},
         "Loop": {"type": "object", "required": ["next"], "properties": {"next": {"$ref": "#/components/schemas/Loop"}}}}
        """

    static func generate(
        _ schema: String, seed: UInt64? = nil
    ) throws -> (Result<JSONValue, GenerationRefusal>, SchemaDocument) {
        let document = try SchemaDocument(schema, components: pets)
        let result = GeneratedBody.make(
            for: document.schema, in: document.contract, seed: GeneratedBody.Seed(key: "GET /x 200", number: seed))
        return (result, document)
    }

    /// Generates, and checks the body with a validator of its own.
    static func valid(_ schema: String, seed: UInt64? = nil) throws -> JSONValue {
        let (result, document) = try generate(schema, seed: seed)
        let body = try result.get()
        let errors = SchemaConformance(contract: document.contract).errors(body, document.schema)
        #expect(errors.isEmpty, "\(schema) → \(body.serialized()): \(errors)")
        return body
    }

    @Test(arguments: [
        ##"{"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}"##,
        ##"{"allOf": [{"$ref": "#/components/schemas/Base"}, {"type": "object", "required": ["extra"], "properties": {"extra": {"type": "boolean"}}}]}"##,
        ##"{"oneOf": [{"type": "integer", "minimum": 0, "maximum": 10}, {"type": "integer", "minimum": 5, "maximum": 100}]}"##,
        ##"{"oneOf": [{"type": "number"}, {"type": "integer"}]}"##,
        ##"{"anyOf": [{"type": "string", "maxLength": 2}, {"type": "integer"}]}"##,
        ##"{"type": "object", "properties": {"a": {"format": "date-time", "type": "string"}, "b": {"type": "string", "format": "date"}, "c": {"type": "string", "format": "time"}, "d": {"type": "string", "format": "email"}, "e": {"type": "string", "format": "uri"}, "f": {"type": "string", "format": "hostname"}, "g": {"type": "string", "format": "ipv4"}, "h": {"type": "string", "format": "ipv6"}, "i": {"type": "string", "format": "byte"}, "j": {"type": "string", "format": "uuid"}}}"##,
        ##"{"type": "string", "format": "email", "minLength": 40}"##,
        ##"{"enum": ["a", "b", 3]}"##,
        ##"{"type": "integer", "enum": ["no", 4]}"##,
        ##"{"const": {"k": [1, 2]}}"##,
        ##"{"type": "integer", "exclusiveMinimum": 5, "exclusiveMaximum": 7}"##,
        ##"{"type": "number", "multipleOf": 0.25, "minimum": 1.1, "maximum": 1.6}"##,
        ##"{"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 0.1}"##,
        ##"{"type": "integer", "multipleOf": 7, "minimum": 100}"##,
        ##"{"type": "integer", "multipleOf": 2.5, "maximum": -3}"##,
        ##"{"type": "string", "minLength": 10, "maxLength": 12}"##,
        ##"{"type": "array", "minItems": 3, "maxItems": 3, "uniqueItems": true, "items": {"enum": ["x", "y", "z"]}}"##,
        ##"{"type": "array", "minItems": 5, "uniqueItems": true, "items": {"type": "integer"}}"##,
        ##"{"type": "object", "minProperties": 3, "maxProperties": 4, "additionalProperties": {"type": "integer"}}"##,
        ##"{"type": "object", "additionalProperties": false, "maxProperties": 1, "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}"##,
        ##"{"type": "object", "required": ["n"], "properties": {"n": {"type": "string", "nullable": true}}}"##,
        ##"{"type": ["string", "null"]}"##,
        ##"{"$ref": "#/components/schemas/Node"}"##,
        ##"{"type": "string", "pattern": "^[A-Z]{2}-[0-9]{3}$"}"##,
        ##"{"type": "string", "pattern": "[a-z]+", "minLength": 20, "maxLength": 25}"##,
        ##"{"type": "string", "pattern": "^(red|green|blue)(-[0-9]{1,2})?$", "maxLength": 6}"##,
        ##"{"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$", "format": "date"}"##,
        ##"{"not": {"type": "string"}}"##,
        ##"{"type": "array", "prefixItems": [{"type": "integer"}, {"type": "boolean"}], "items": {"type": "string"}, "minItems": 3}"##,
    ])
    func theBodyIsValid(schema: String) throws {
        _ = try Self.valid(schema)
        for seed: UInt64 in [1, 2, 3] { _ = try Self.valid(schema, seed: seed) }
    }

    @Test func aDiscriminatorSetsItsPropertyToTheMappingKey() throws {
        let schema = """
            {"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}],
             "discriminator": {"propertyName": "petType", "mapping": {"kitty": "#/components/schemas/Cat", "doggo": "Dog"}}}
            """
        let body = try Self.valid(schema)
        #expect(body["petType"] == .string("kitty"))
        #expect(body["meows"] != nil)
        var seen: Set<String> = []
        for seed: UInt64 in 0..<16 { seen.insert(try Self.valid(schema, seed: seed)["petType"]?.stringValue ?? "") }
        #expect(seen == ["kitty", "doggo"])
    }

    @Test func aDiscriminatorWithoutMappingUsesTheSchemaName() throws {
        let schema = """
            {"oneOf": [{"$ref": "#/components/schemas/Dog"}, {"$ref": "#/components/schemas/Cat"}],
             "discriminator": {"propertyName": "petType"}}
            """
        let body = try Self.valid(schema)
        #expect(body["petType"] == .string("Dog"))
        #expect(body["barks"] != nil)
    }

    @Test func aPatternIsMatchedWithinTheLengths() throws {
        let body = try Self.valid(##"{"type": "string", "pattern": "^[A-Z]{2}-[0-9]{3,6}$", "minLength": 8}"##)
        let text = try #require(body.stringValue)
        #expect(text.count >= 8 && text.count <= 9)
        #expect(text.dropFirst(2).first == "-")
    }

    @Test func recursionIsCutOff() throws {
        let body = try Self.valid(##"{"$ref": "#/components/schemas/Node"}"##)
        #expect(body.serialized().count < 100_000)
    }

    @Test(arguments: [
        (##"{"type": "string", "pattern": "^[0-9]{5}$", "maxLength": 3}"##, "pattern"),
        (##"{"type": "string", "minLength": 1000000000}"##, "minLength"),
        (##"{"type": "integer", "minimum": 10, "maximum": 5}"##, "bounds"),
        (##"{"allOf": [{"type": "string"}, {"type": "integer"}]}"##, "allows no value"),
        (##"{"$ref": "#/components/schemas/Loop"}"##, "deeper"),
        (##"{"type": "array", "minItems": 100000000}"##, "minItems"),
        (##"{"type": "object", "minProperties": 3, "additionalProperties": false}"##, "minProperties"),
        (##"{"type": "string", "minLength": 5, "maxLength": 2}"##, "maxLength"),
    ])
    func anUnsatisfiableSchemaIsRefused(schema: String, word: String) throws {
        let (result, _) = try Self.generate(schema)
        guard case .failure(let refusal) = result else {
            Issue.record("\(schema) gave a body")
            return
        }
        #expect(refusal.reason.contains(word), "\(refusal.reason)")
    }

    @Test func theSameSeedGivesTheSameBody() throws {
        let schema =
            ##"{"type": "object", "required": ["a", "b"], "properties": {"a": {"type": "string"}, "b": {"type": "number"}}}"##
        #expect(try Self.valid(schema, seed: 42) == (try Self.valid(schema, seed: 42)))
        let bodies = Set(try (0..<8).map { try Self.valid(schema, seed: UInt64($0)).serialized() })
        #expect(bodies.count > 4)
    }
}
