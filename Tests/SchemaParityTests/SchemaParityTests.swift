import APISchema
import ContractKit
import JSONKit
import Testing

@testable import MockEngine
@testable import StubFormat

/// One table of (schema, instance, valid?) run through both tools' entry points: petmock's
/// `matchesJsonSchema` (a compiled body matcher) and petcontract's body validation
/// (`ContractValidator` over an OpenAPI 3.1 document whose `GET /x` answers with the schema).
/// Both must give the table's answer.
///
/// petcontract's findings are richer than valid or not: an optional property that is absent or
/// a member the contract does not list is a note, not a violation, so those two ids count as
/// valid here. Local references are written `#/$defs/...`, which both documents hold.
@Suite struct SchemaParityTests {
    struct Row: Sendable, CustomStringConvertible {
        let schema: String
        let instance: String
        let valid: Bool

        init(_ schema: String, _ instance: String, _ valid: Bool) {
            self.schema = schema
            self.instance = instance
            self.valid = valid
        }

        var description: String { "\(schema) on \(instance)" }
    }

    static let rows: [Row] = [
        // type
        Row(#"{"type": "integer"}"#, "3", true),
        Row(#"{"type": "integer"}"#, "3.5", false),
        Row(#"{"type": "integer"}"#, "3.0", true),
        Row(#"{"type": "number"}"#, "3", true),
        Row(#"{"type": "object"}"#, "[]", false),
        Row(#"{"type": "array"}"#, "{}", false),
        Row(#"{"type": "boolean"}"#, "true", true),
        Row(#"{"type": ["integer", "null"]}"#, "null", true),
        Row(#"{"type": "integer"}"#, "null", false),
        // required, properties, additionalProperties
        Row(#"{"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}}}"#, #"{}"#, false),
        Row(#"{"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}}}"#, #"{"a": "x"}"#, true),
        Row(#"{"type": "object", "properties": {"a": {"type": "string"}}}"#, #"{"a": 1}"#, false),
        Row(#"{"type": "object", "required": ["a"]}"#, #"{"b": 1}"#, false),
        Row(
            #"{"type": "object", "properties": {"a": {}}, "additionalProperties": false}"#, #"{"a": 1, "b": 2}"#, false),
        Row(#"{"type": "object", "additionalProperties": {"type": "integer"}}"#, #"{"b": 2}"#, true),
        Row(#"{"type": "object", "additionalProperties": {"type": "integer"}}"#, #"{"b": "2"}"#, false),
        // items, prefixItems
        Row(#"{"type": "array", "items": {"type": "integer"}}"#, "[1, 2, 3]", true),
        Row(#"{"type": "array", "items": {"type": "integer"}}"#, #"[1, "2"]"#, false),
        Row(#"{"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]}"#, #"["a", 1, true]"#, true),
        Row(#"{"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]}"#, #"[1, "a"]"#, false),
        Row(
            #"{"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "integer"}}"#, #"["a", 1, "b"]"#,
            false),
        // contains, minContains, maxContains
        Row(#"{"type": "array", "contains": {"type": "integer"}}"#, #"["a", 1]"#, true),
        Row(#"{"type": "array", "contains": {"type": "integer"}}"#, #"["a"]"#, false),
        Row(#"{"type": "array", "contains": {"type": "integer"}, "minContains": 0}"#, "[]", true),
        Row(#"{"type": "array", "contains": {"type": "integer"}, "minContains": 2}"#, #"[1, "a"]"#, false),
        Row(#"{"type": "array", "contains": {"type": "integer"}, "maxContains": 1}"#, "[1, 2]", false),
        Row(#"{"type": "array", "minContains": 3}"#, "[1]", true),
        // enum, const
        Row(#"{"enum": ["a", 1]}"#, "1.0", true),
        Row(#"{"type": "string", "enum": ["a", "b"]}"#, #""c""#, false),
        Row(#"{"type": "object", "const": {"x": [1]}}"#, #"{"x": [1]}"#, true),
        Row(#"{"type": "object", "const": {"x": [1]}}"#, #"{"x": [2]}"#, false),
        // sizes and bounds
        Row(#"{"type": "string", "minLength": 2}"#, #""é""#, false),
        Row(#"{"type": "string", "maxLength": 3}"#, #""abc""#, true),
        Row(#"{"type": "array", "minItems": 2}"#, "[1]", false),
        Row(#"{"type": "array", "maxItems": 2}"#, "[1, 2]", true),
        Row(#"{"type": "array", "uniqueItems": true}"#, "[1, 1.0]", false),
        Row(#"{"type": "object", "minProperties": 2}"#, #"{"a": 1}"#, false),
        Row(#"{"type": "object", "maxProperties": 1}"#, #"{"a": 1, "b": 2}"#, false),
        Row(#"{"type": "number", "minimum": 2}"#, "2", true),
        Row(#"{"type": "number", "maximum": 2}"#, "2.5", false),
        Row(#"{"type": "number", "exclusiveMinimum": 2}"#, "2", false),
        Row(#"{"type": "number", "exclusiveMaximum": 3}"#, "2.5", true),
        Row(#"{"type": "number", "multipleOf": 0.5}"#, "2.5", true),
        Row(#"{"type": "integer", "multipleOf": 3}"#, "10", false),
        // pattern (found anywhere in the string)
        Row(#"{"type": "string", "pattern": "b+"}"#, #""abbc""#, true),
        Row(#"{"type": "string", "pattern": "^b+$"}"#, #""abbc""#, false),
        // composition
        Row(#"{"allOf": [{"type": "object"}, {"required": ["a"]}]}"#, #"{"a": 1}"#, true),
        Row(#"{"allOf": [{"type": "object"}, {"required": ["a"]}]}"#, #"{"b": 1}"#, false),
        Row(#"{"allOf": [{"type": "number", "minimum": 5}, {"minimum": 2}]}"#, "3", false),
        Row(#"{"allOf": [{"maxLength": 2}, {"type": "string", "maxLength": 4}]}"#, #""abc""#, false),
        Row(#"{"allOf": [{"enum": ["a", "b"]}, {"enum": ["b", "c"]}]}"#, #""a""#, false),
        Row(#"{"anyOf": [{"type": "array"}, {"type": "integer"}]}"#, "true", false),
        Row(#"{"anyOf": [{"type": "array"}, {"type": "integer"}]}"#, "[]", true),
        Row(#"{"oneOf": [{"type": "number"}, {"type": "integer"}]}"#, "1", false),
        Row(#"{"oneOf": [{"type": "number"}, {"type": "integer"}]}"#, "1.5", true),
        Row(#"{"type": "object", "not": {"required": ["a"]}}"#, #"{"a": 1}"#, false),
        Row(#"{"type": "object", "not": {"required": ["a"]}}"#, #"{"b": 1}"#, true),
        // $ref within the schema
        Row(
            ##"{"$defs": {"id": {"type": "integer", "minimum": 1}}, "type": "object", "properties": {"id": {"$ref": "#/$defs/id"}}}"##,
            #"{"id": 0}"#, false),
        Row(
            ##"{"$defs": {"id": {"type": "integer", "minimum": 1}}, "type": "array", "items": {"$ref": "#/$defs/id"}}"##,
            "[1, 2]", true),
        // nullable (OpenAPI 3.0)
        Row(#"{"type": "string", "nullable": true}"#, "null", true),
        Row(#"{"type": "integer", "nullable": false}"#, "null", false),
        // formats
        Row(#"{"type": "string", "format": "email"}"#, #""vet@example.org""#, true),
        Row(#"{"type": "string", "format": "email"}"#, #""vet@@example.org""#, false),
        Row(#"{"type": "string", "format": "email"}"#, #""a..b@example.org""#, false),
        Row(#"{"type": "string", "format": "email"}"#, #""vet@localhost""#, false),
        Row(#"{"type": "string", "format": "date"}"#, #""2024-05-01""#, true),
        Row(#"{"type": "string", "format": "date"}"#, #""2024-5-1""#, false),
        Row(#"{"type": "string", "format": "date"}"#, #""2023-02-29""#, false),
        Row(#"{"type": "string", "format": "date"}"#, #""2024-02-29""#, true),
        Row(#"{"type": "string", "format": "date-time"}"#, #""2024-05-01T24:30:00Z""#, false),
        Row(#"{"type": "string", "format": "date-time"}"#, #""2024-05-01T12:30:00.5+02:00""#, true),
        Row(#"{"type": "string", "format": "date-time"}"#, #""2024-05-01T12:30:00""#, false),
        Row(#"{"type": "string", "format": "time"}"#, #""12:30:00Z""#, true),
        Row(#"{"type": "string", "format": "uuid"}"#, #""123e4567-e89b-12d3-a456-426614174000""#, true),
        Row(#"{"type": "string", "format": "uuid"}"#, #""123e4567e89b12d3a456426614174000""#, false),
        Row(#"{"type": "string", "format": "uri"}"#, #""https://example.org/a?b=c""#, true),
        Row(#"{"type": "string", "format": "uri"}"#, #""example.org/a""#, false),
        Row(#"{"type": "string", "format": "ipv4"}"#, #""192.168.0.1""#, true),
        Row(#"{"type": "string", "format": "ipv4"}"#, #""192.168.0.01""#, false),
        Row(#"{"type": "string", "format": "ipv6"}"#, #""2001:db8::1""#, true),
        Row(#"{"type": "string", "format": "ipv6"}"#, #""2001:db8:::1""#, false),
        Row(#"{"type": "string", "format": "hostname"}"#, #""api.example.org""#, true),
        Row(#"{"type": "string", "format": "hostname"}"#, #""-api.example.org""#, false),
        Row(#"{"type": "string", "format": "byte"}"#, #""aGVsbG8=""#, true),
    ]

    /// petmock's answer: the stub's body matcher, compiled as the loader compiles it.
    static func petmockAccepts(_ row: Row) throws -> Bool {
        var decoder = MappingDecoder(file: "parity.json")
        let spec = try #require(
            decoder.matcher(try JSONValue(parsing: #"{"matchesJsonSchema": \#(row.schema)}"#), at: .root),
            "\(decoder.problems)")
        var problems: [PatternProblem] = []
        let matcher = try #require(CompiledMatcher.compile(spec, at: "$", problems: &problems), "\(problems)")
        return matcher.matches(row.instance)
    }

    /// petcontract's answer: the body of a `GET /x` response checked against the schema.
    static func petcontractAccepts(_ row: Row) throws -> Bool {
        let schema = try JSONValue(parsing: row.schema)
        var document: JSONObject = [
            "openapi": "3.1.0", "info": ["title": "parity", "version": "1"],
            "paths": [
                "/x": [
                    "get": [
                        "responses": [
                            "200": ["description": "ok", "content": ["application/json": ["schema": schema]]]
                        ]
                    ]
                ]
            ],
        ]
        if let definitions = schema.objectValue?["$defs"] { document.append(key: "$defs", value: definitions) }
        let contract = try OpenAPIReader().read(.object(document), source: "parity.json")
        let operation = try #require(contract.operation(named: "GET /x"))
        let result = ContractValidator(contract: contract).validate(
            ObservedResponse(url: "http://example.org/x", status: 200, body: Array(row.instance.utf8)), for: operation)
        let notes: Set<FindingID> = [.optionalPropertyMissing, .propertyUnexpected]
        return result.findings.allSatisfy { notes.contains($0.id) }
    }

    @Test func theTableCoversEveryArea() {
        #expect(Self.rows.count >= 40)
        #expect(Self.rows.contains { $0.valid } && Self.rows.contains { !$0.valid })
    }

    /// Choices nested in the value that would take exponential time (both branches of every
    /// level fail only at the bottom) end at the step budget: no match, in bounded time.
    @Test func nestedChoicesAreBounded() throws {
        let branch = ##"{"type": "object", "properties": {"a": {"$ref": "#/$defs/n"}}, "required": ["z"]}"##
        let schema = ##"{"$defs": {"n": {"anyOf": [\##(branch), \##(branch)]}}, "$ref": "#/$defs/n"}"##
        var deep = "{}"
        var fine = #"{"z": 1}"#
        for _ in 0..<30 {
            deep = #"{"a": \#(deep)}"#
            fine = #"{"z": 1, "a": \#(fine)}"#
        }
        #expect(try !Self.petmockAccepts(Row(schema, deep, false)))
        #expect(try Self.petmockAccepts(Row(schema, fine, true)))
    }

    @Test(arguments: rows)
    func petmockAgrees(_ row: Row) throws {
        #expect(try Self.petmockAccepts(row) == row.valid, "\(row)")
    }

    @Test(arguments: rows)
    func petcontractAgrees(_ row: Row) throws {
        #expect(try Self.petcontractAccepts(row) == row.valid, "\(row)")
    }
}
