import APISchema
import ContractKit
import Testing

@Suite struct SchemaLimitsTests {
    @Test(arguments: [
        ("date-time", "2024-05-01T12:30:00.5+02:00", "2024-05-01 12:30"),
        ("date", "2024-05-01", "01/05/2024"),
        ("time", "12:30:00Z", "25:00:00Z"),
        ("email", "ann.lee+vet@example.org", "ann@@example.org"),
        ("uuid", "123e4567-e89b-12d3-a456-426614174000", "123e4567e89b12d3a456426614174000"),
        ("uri", "https://example.org/a?b=c", "/relative/path"),
        ("ipv4", "192.168.0.1", "256.1.1.1"),
        ("ipv6", "2001:db8::ff00:42:8329", "2001:db8:::1"),
        ("ipv6", "::ffff:192.0.2.1", "1:2:3:4:5:6:7:8:9"),
        ("hostname", "api.example.org", "-bad-.example.org"),
    ])
    func formats(format: String, valid: String, invalid: String) throws {
        let schema = #"{"type": "string", "format": "\#(format)"}"#
        #expect(try findings(schema: schema, body: "\"\(valid)\"") == [])
        #expect(try findings(schema: schema, body: "\"\(invalid)\"") == ["response-string-format-mismatch $"])
    }

    @Test(arguments: [
        (#"{"type": "integer", "format": "int32"}"#, "2147483647", "2147483648"),
        (#"{"type": "integer", "format": "int64"}"#, "9223372036854775807", "9223372036854775808"),
        (#"{"type": "integer", "minimum": 1, "maximum": 10}"#, "10", "11"),
        (#"{"type": "integer", "minimum": 1, "maximum": 10}"#, "1", "0"),
        (#"{"type": "number", "exclusiveMinimum": 0}"#, "0.5", "0"),
        (#"{"type": "number", "exclusiveMaximum": 1}"#, "0.5", "1"),
        (#"{"type": "number", "minimum": 0, "exclusiveMinimum": true}"#, "0.1", "0"),
        (#"{"type": "number", "maximum": 5, "exclusiveMaximum": true}"#, "4.9", "5"),
        (#"{"type": "number", "multipleOf": 0.5}"#, "2.5", "2.3"),
        (#"{"type": "integer", "multipleOf": 3}"#, "9", "10"),
    ])
    func numberBounds(schema: String, valid: String, invalid: String) throws {
        #expect(try findings(schema: schema, body: valid) == [])
        #expect(try findings(schema: schema, body: invalid) == ["response-value-out-of-range $"])
    }

    @Test func stringLengthsAndPatterns() throws {
        let length = #"{"type": "string", "minLength": 2, "maxLength": 3}"#
        #expect(try findings(schema: length, body: #""ab""#) == [])
        #expect(try findings(schema: length, body: #""äöü""#) == [])
        #expect(try findings(schema: length, body: #""a""#) == ["response-string-length-out-of-range $"])
        #expect(try findings(schema: length, body: #""abcd""#) == ["response-string-length-out-of-range $"])
        let pattern = #"{"type": "string", "pattern": "^[A-Z]{2}-\\d+$"}"#
        #expect(try findings(schema: pattern, body: #""AB-12""#) == [])
        #expect(try findings(schema: pattern, body: #""ab-12""#) == ["response-string-pattern-mismatch $"])
        // Unanchored, as JSON Schema says: a match anywhere passes.
        #expect(try findings(schema: #"{"type": "string", "pattern": "b+"}"#, body: #""abbc""#) == [])
    }

    @Test func nestedQuantifiersAreCheckedInLinearTime() throws {
        // (a+)+ takes exponential time on a backtracking engine for "aaaa...!"; LinearTimeRegex
        // answers at once, so such patterns are checked like any other.
        let schema = #"{"type": "string", "pattern": "^(a+)+$"}"#
        let drifted = "\"" + String(repeating: "a", count: 4_000) + "!\""
        #expect(try findings(schema: schema, body: drifted) == ["response-string-pattern-mismatch $"])
        #expect(try findings(schema: schema, body: "\"" + String(repeating: "a", count: 4_000) + "\"") == [])
        let alternation = #"{"type": "string", "pattern": "^(a|aa)+$"}"#
        #expect(try findings(schema: alternation, body: drifted) == ["response-string-pattern-mismatch $"])
        // A quantified group without a quantifier inside is still checked.
        #expect(
            try findings(schema: #"{"type": "string", "pattern": "^(ab)+$"}"#, body: #""abx""#) == [
                "response-string-pattern-mismatch $"
            ])
    }

    @Test func arraySizesAndUniqueness() throws {
        let sized = #"{"type": "array", "minItems": 1, "maxItems": 2, "items": {"type": "integer"}}"#
        #expect(try findings(schema: sized, body: "[1, 2]") == [])
        #expect(try findings(schema: sized, body: "[]") == ["response-array-size-out-of-range $"])
        #expect(try findings(schema: sized, body: "[1, 2, 3]") == ["response-array-size-out-of-range $"])
        let unique = #"{"type": "array", "uniqueItems": true}"#
        #expect(try findings(schema: unique, body: #"[1, "1", {"a": 1}]"#) == [])
        #expect(
            try findings(schema: unique, body: #"[{"a": 1}, 2, {"a": 1}]"#) == ["response-array-items-not-unique $"])
    }

    @Test func additionalPropertiesFalseOrASchema() throws {
        let closed = #"{"type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": false}"#
        #expect(try findings(schema: closed, body: #"{"a": 1}"#) == [])
        #expect(try findings(schema: closed, body: #"{"a": 1, "b": 2}"#) == ["response-property-not-allowed $.b"])
        let typed = #"{"type": "object", "additionalProperties": {"type": "integer", "maximum": 9}}"#
        #expect(try findings(schema: typed, body: #"{"x": 1, "y": 2}"#) == [])
        #expect(
            try findings(schema: typed, body: #"{"x": 10, "y": "2"}"#) == [
                "response-value-out-of-range $.x", "response-property-type-changed $.y",
            ])
    }

    @Test func nullableAndTypeLists() throws {
        let thirty =
            #"{"type": "object", "required": ["a"], "properties": {"a": {"type": "integer", "nullable": true}}}"#
        #expect(try findings(schema: thirty, body: #"{"a": null}"#) == [])
        let list = #"{"type": "object", "required": ["a"], "properties": {"a": {"type": ["integer", "null"]}}}"#
        #expect(try findings(schema: list, body: #"{"a": null}"#) == [])
        let plain = #"{"type": "object", "required": ["a"], "properties": {"a": {"type": "integer"}}}"#
        #expect(try findings(schema: plain, body: #"{"a": null}"#) == ["response-required-property-null $.a"])
        #expect(try findings(schema: #"{"type": ["string", "integer"]}"#, body: "3") == [])
        #expect(
            try findings(schema: #"{"type": ["string", "integer"]}"#, body: "true") == [
                "response-property-type-changed $"
            ])
    }

    @Test func writeOnlyPropertiesMustNotBeInResponses() throws {
        let schema = #"""
            {"type": "object", "required": ["name", "password"], "properties": {"name": {"type": "string", "readOnly": true},
             "password": {"type": "string", "writeOnly": true}}}
            """#
        #expect(try findings(schema: schema, body: #"{"name": "ann"}"#) == [])
        #expect(
            try findings(schema: schema, body: #"{"name": "ann", "password": "x"}"#) == [
                "response-property-not-allowed $.password"
            ])
    }
}
