import APISchema
import JSONKit
import Testing

@testable import OpenAPIMock

/// The quick pass never lets through what the validator refuses, and takes the plain values
/// it is for.
@Suite struct PlainValueCheckTests {
    static let schemas: [String] = [
        #"{"type": "integer", "minimum": 1, "maximum": 100}"#,
        #"{"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 10}"#,
        #"{"type": "number", "minimum": -1.5}"#,
        #"{"type": "string", "minLength": 2, "maxLength": 3}"#,
        #"{"type": "string", "enum": ["open", "paid"]}"#,
        #"{"type": "boolean"}"#,
        #"{"type": "integer", "enum": [1, 2]}"#,
        #"{"type": "string", "pattern": "^[a-z]{2}$"}"#,
        #"{"type": "string", "pattern": "b", "maxLength": 3}"#,
    ]

    static let values: [JSONValue] = [
        .int(0), .int(1), .int(5), .int(10), .int(100), .int(101), .int(-2),
        (JSONNumber(2.5).map(JSONValue.number) ?? .null),
        (JSONNumber(-1.5).map(JSONValue.number) ?? .null), (JSONNumber(1.0).map(JSONValue.number) ?? .null),
        .string(""), .string("ab"), .string("abcd"),
        .string("éé"), .string("open"), .string("x"), .string("abc"), .string("b"), .bool(true), .bool(false), .null,
    ]

    @Test(arguments: schemas) func neverPassesWhatTheValidatorRefuses(_ text: String) throws {
        let contract = try OpenAPIReader().read(
            Array(#"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}}"#.utf8), source: "t")
        let schema = try StandaloneSchema(try JSONValue(parsing: text)).root
        let check = try #require(PlainValueCheck(schema), "\(text) is plain")
        let validator = JSONSchemaValidator(schema: schema, in: contract)
        var passed = 0
        for value in Self.values where check.passes(value) {
            passed += 1
            #expect(validator.violations(value, limit: 5).isEmpty, "\(text) passed \(value.serialized())")
        }
        #expect(passed > 0, "\(text) passes nothing")
    }

    @Test func schemasBeyondPlainGoToTheValidator() throws {
        for text in [
            #"{"type": "string", "pattern": "(("}"#, #"{"type": "integer", "multipleOf": 2}"#,
            #"{"type": "string", "format": "uuid"}"#, #"{"type": ["integer", "null"]}"#,
            #"{"anyOf": [{"type": "integer"}]}"#, #"{"type": "array", "items": {"type": "integer"}}"#,
        ] {
            #expect(PlainValueCheck(try StandaloneSchema(try JSONValue(parsing: text)).root) == nil, "\(text)")
        }
    }
}
