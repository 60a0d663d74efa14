import HTTPCore
import JSONKit
import Testing

@testable import MockEngine
@testable import StubFormat
@testable import StubServerKit

/// `matchesJsonSchema`. Cases carried over as data from WireMock's `MatchesJsonSchemaPatternTest`
/// (Apache-2.0, `src/test/java/com/github/tomakehurst/wiremock/matching/`), with its schema files
/// (`schema-validation/*.json` in WireMock's test resources) written out below.
@Suite struct WireMockJSONSchemaParityTests {
    static let shopOrder =
        #"{"type": "object", "required": ["itemCatalogueId", "quantity"], "properties": {"itemCatalogueId": {"type": "string"}, "quantity": {"type": "integer"}, "fastDelivery": {"type": "boolean"}}}"#
    static let hasRef =
        ##"{"$schema": "http://json-schema.org/draft-04/schema", "required": ["things"], "properties": {"things": {"type": "array", "items": {"$ref": "#/definitions/single"}}}, "definitions": {"single": {"type": "integer"}}}"##
    static let numeric = #"{"type": "number", "maximum": 100}"#
    static let stringy = #"{"type": "string", "maxLength": 5}"#
    static let shortString = #"{"type": "string", "minLength": 2, "maxLength": 4}"#

    struct Case: Sendable, CustomStringConvertible {
        let source: String
        let schema: String
        var version: String?
        let value: String?
        let matches: Bool

        var description: String { "\(source): \(value ?? "nil")" }
    }

    static let cases: [Case] =
        [
            Case(source: "invalidContentGivesNoMatch", schema: shopOrder, value: nil, matches: false),
            Case(source: "invalidContentGivesNoMatch", schema: shopOrder, value: "", matches: false),
            Case(source: "invalidContentGivesNoMatch", schema: shopOrder, value: "not json", matches: false),
            Case(source: "invalidContentGivesNoMatch", schema: shopOrder, value: "{", matches: false),
            Case(
                source: "shop order that fits", schema: shopOrder,
                value: #"{"itemCatalogueId": "abc123", "quantity": 1, "fastDelivery": true}"#, matches: true),
        ]
        + [#""12""#, #""123""#, #""1234""#, "12", "123", "1234"].map {
            Case(source: "matchesAString", schema: shortString, value: $0, matches: true)
        }
        + ["", #""""#, #""1""#, #""12345""#, "1", "12345"].map {
            Case(source: "doesNotMatchAnInvalidString", schema: shortString, value: $0, matches: false)
        }
        + [#"{ "things": [] }"#, #"{ "things": [ 1 ] }"#, #"{ "things": [ 1, 2 ] }"#].map {
            Case(source: "simpleRefMatches", schema: hasRef, version: "V4", value: $0, matches: true)
        }
        + [
            "{}", #"{ "not_things": null }"#, #"{ "not_things": [] }"#, #"{ "things": null }"#, #"{ "things": {} }"#,
            #"{ "things": 1 }"#, #"{ "things": [ "1" ] }"#,
        ].map { Case(source: "simpleRefRejectsNonMatches", schema: hasRef, version: "V4", value: $0, matches: false) }
        + [("5", true), ("0", true), ("100", true), ("10a", false), ("101", false)].map {
            Case(
                source: "corercesNumericActualValueToJsonNumber", schema: numeric, version: "V4", value: $0, matches: $1
            )
        }
        + [("abcd", true), ("abcde", true), ("abcdef", false), ("1", true), ("12345", true), ("123456", false)].map {
            Case(
                source: "coercesNumericActualValueToJsonString", schema: stringy, version: "V4", value: $0, matches: $1)
        }

    static func compiled(_ json: String) throws -> CompiledMatcher {
        var decoder = MappingDecoder(file: "m.json")
        let matcher = try #require(decoder.matcher(try JSONValue(parsing: json), at: .root), "\(decoder.problems)")
        var again = MappingDecoder(file: "again.json")
        #expect(again.matcher(matcher.json, at: .root) == matcher, "round trip")
        var problems: [PatternProblem] = []
        let compiled = CompiledMatcher.compile(matcher, at: "$", problems: &problems)
        #expect(problems.isEmpty, "\(problems)")
        return try #require(compiled)
    }

    static func matcherJSON(_ example: Case) -> String {
        #"{"matchesJsonSchema": \#(example.schema)"# + (example.version.map { #", "schemaVersion": "\#($0)""# } ?? "")
            + "}"
    }

    @Test(arguments: cases)
    func wireMockCase(_ example: Case) throws {
        let matcher = try Self.compiled(Self.matcherJSON(example))
        #expect(matcher.matches(example.value) == example.matches, "\(example)")
    }

    /// `distanceIsProportionateToNumberOfValidationErrors` and the invalid strings' distance of 1.
    @Test func distancesAreErrorsOverTheSchemasProperties() throws {
        let order = try Self.compiled(#"{"matchesJsonSchema": \#(Self.shopOrder)}"#)
        #expect(abs(order.mismatchDistance("{}") - 0.66) < 0.01)
        let slightlyWrong = #"{"itemCatalogueId": "abc123", "quantity": 1, "fastDelivery": "yesplease"}"#
        #expect(abs(order.mismatchDistance(slightlyWrong) - 0.33) < 0.01)
        #expect(order.mismatchDistance("not json") > 0.33)
        let short = try Self.compiled(#"{"matchesJsonSchema": \#(Self.shortString)}"#)
        #expect(short.mismatchDistance("12345") == 1)
    }

    /// `deserialisesFromJson{String,Value}CorrectlyWith{Default,Provided}SchemaVersion`: the schema
    /// as a JSON string or as JSON, with or without `schemaVersion`.
    @Test(arguments: [
        #"{"matchesJsonSchema": "{\"required\": [\"itemCatalogueId\", \"quantity\"], \"properties\": {\"itemCatalogueId\": {\"type\": \"string\"}, \"quantity\": {\"type\": \"integer\"}, \"fastDelivery\": {\"type\": \"boolean\"}}}"}"#,
        #"{"matchesJsonSchema": "{\"properties\": {\"itemCatalogueId\": {\"type\": \"string\"}}}", "schemaVersion": "V6"}"#,
        #"{"matchesJsonSchema": {"required": ["itemCatalogueId", "quantity"], "properties": {"itemCatalogueId": {"type": "string"}, "quantity": {"type": "integer"}, "fastDelivery": {"type": "boolean"}}}}"#,
        #"{"matchesJsonSchema": {"properties": {"itemCatalogueId": {"type": "string"}}}, "schemaVersion": "V6"}"#,
    ])
    func schemaAsStringOrValue(json: String) throws {
        let matcher = try Self.compiled(json)
        #expect(matcher.matches(#"{"itemCatalogueId": "x", "quantity": 2}"#))
        #expect(!matcher.matches(#"{"itemCatalogueId": 5, "quantity": 2}"#))
    }

    /// `invalidJsonSchemaNeverMatches`: WireMock loads such a schema and never matches; petmock
    /// refuses it when the stub loads, naming the keyword (deliberately: no stub that can never
    /// answer). Keywords petmock does not implement are refused the same way.
    @Test(arguments: [
        (#"{"id": 1, "name": "alice"}"#, "'#/id'"),
        (##"{"type": "array", "items": {"$ref": "#/does/not/exist"}}"##, "'#/items/$ref'"),
        (#"{"type": "object", "patternProperties": {"^x": {}}}"#, "'#/patternProperties'"),
        (#"{"properties": {"a": {"if": {"type": "string"}}}}"#, "'#/properties/a/if'"),
        (#"{"type": "string", "format": "idn-hostname"}"#, "'#/format'"),
        (#"{"type": "strings"}"#, "'#/type'"),
    ])
    func invalidSchemasAreLoadErrors(schema: String, found: String) throws {
        let mapping = #"{"request": {"bodyPatterns": [{"matchesJsonSchema": \#(schema)}]}, "response": {}}"#
        let compiled = StubCompiler(filesRoot: nil).compile(
            try StubMapping(json: mapping), sequence: 0, origin: .code, file: "m.json")
        #expect(compiled.stub == nil)
        let problem = try #require(compiled.problems.first)
        #expect(problem.path == "$.request.bodyPatterns[0].matchesJsonSchema")
        #expect(problem.found?.hasPrefix(found) == true, "\(problem)")
    }

    /// The keywords beyond WireMock's own tests, one value each way. A number, Boolean or null that
    /// fails is tried again as the text it was written as (WireMock's coercion), hence the `type`s.
    @Test(arguments: [
        (#"{"enum": ["a", 1]}"#, "1.0", true), (#"{"enum": ["a", 1]}"#, #""b""#, false),
        (#"{"const": {"x": [1]}}"#, #"{"x": [1]}"#, true),
        (#"{"type": "number", "minimum": 2, "exclusiveMinimum": true}"#, "2", false),
        (#"{"exclusiveMaximum": 3}"#, "2.5", true), (#"{"multipleOf": 0.5}"#, "2.5", true),
        (#"{"pattern": "b+"}"#, #""abbc""#, true), (#"{"pattern": "^b+$"}"#, #""abbc""#, false),
        (#"{"items": {"type": "integer"}, "minItems": 2, "uniqueItems": true}"#, "[1, 1]", false),
        (#"{"additionalProperties": false, "properties": {"a": {}}}"#, #"{"a": 1, "b": 2}"#, false),
        (#"{"additionalProperties": {"type": "string"}}"#, #"{"b": "x"}"#, true),
        (#"{"allOf": [{"type": "object"}, {"required": ["a"]}]}"#, #"{"a": 1}"#, true),
        (#"{"anyOf": [{"type": "array"}, {"type": "integer"}]}"#, "true", false),
        (#"{"oneOf": [{"type": "number"}, {"type": "integer"}]}"#, "1", false),
        (#"{"not": {"type": "string"}}"#, #"{"a": 1}"#, true), (#"{"maxProperties": 1}"#, #"{"a": 1, "b": 2}"#, false),
        (#"{"format": "date-time"}"#, #""2021-06-14T15:15:15Z""#, true), (#"{"format": "uuid"}"#, #""x""#, false),
        (
            ##"{"properties": {"next": {"$ref": "#"}}, "required": ["v"]}"##,
            ##"{"v": 1, "next": {"v": 2, "next": {}}}"##, false
        ),
        (#"{"type": ["string", "null"]}"#, "null", true),
    ])
    func keywords(schema: String, value: String, expected: Bool) throws {
        let matcher = try Self.compiled(#"{"matchesJsonSchema": \#(schema)}"#)
        #expect(matcher.matches(value) == expected, "\(schema) on \(value)")
    }

    /// Bounded: a schema that refers to itself with no progress stops at the depth limit, and a
    /// value nested past it does not match.
    @Test func selfReferenceIsBounded() throws {
        let matcher = try Self.compiled(##"{"matchesJsonSchema": {"anyOf": [{"$ref": "#"}, {"$ref": "#"}]}}"##)
        #expect(!matcher.matches("1"))
    }
}
