import APISchema
import JSONKit
import Testing

@testable import OpenAPIMock

/// Strings that look like what they name: a table of properties (name and schema) and what
/// their generated value must be, fixed answers and seeded ones alike; `pattern`, lengths,
/// `enum` and `format` win over the name, and every body still validates.
@Suite struct RealisticValueTests {
    enum Expected: Sendable {
        case among([String])
        case format(String)
        case prefix(String)
        case exactly(String)
        /// No kind: the plain string (`string` for a fixed answer, a word when seeded), of a
        /// length within the range.
        case plain(ClosedRange<Int>)
        case fullName
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let schema: String
        let expected: Expected
        var testDescription: String { "\(name): \(schema)" }
    }

    static let rows: [Row] = [
        Row(name: "firstName", schema: #"{"type": "string"}"#, expected: .among(RealisticText.firstNames)),
        Row(name: "given_name", schema: #"{"type": "string"}"#, expected: .among(RealisticText.firstNames)),
        Row(name: "last_name", schema: #"{"type": "string"}"#, expected: .among(RealisticText.lastNames)),
        Row(name: "name", schema: #"{"type": "string"}"#, expected: .fullName),
        Row(name: "email", schema: #"{"type": "string"}"#, expected: .format("email")),
        Row(name: "workEmail", schema: #"{"type": "string"}"#, expected: .format("email")),
        Row(name: "city", schema: #"{"type": "string"}"#, expected: .among(RealisticText.cities)),
        Row(name: "homeCity", schema: #"{"type": "string"}"#, expected: .among(RealisticText.cities)),
        Row(name: "country", schema: #"{"type": "string"}"#, expected: .among(RealisticText.countries.map(\.name))),
        Row(name: "phone", schema: #"{"type": "string"}"#, expected: .prefix("+1-555-")),
        Row(name: "website", schema: #"{"type": "string"}"#, expected: .format("uri")),
        Row(name: "avatarUrl", schema: #"{"type": "string"}"#, expected: .format("uri")),
        Row(name: "id", schema: #"{"type": "string"}"#, expected: .format("uuid")),
        Row(name: "ownerId", schema: #"{"type": "string"}"#, expected: .format("uuid")),
        Row(name: "uuid", schema: #"{"type": "string"}"#, expected: .format("uuid")),
        Row(name: "createdAt", schema: #"{"type": "string"}"#, expected: .format("date-time")),
        Row(name: "updated_at", schema: #"{"type": "string"}"#, expected: .format("date-time")),
        Row(name: "birthDate", schema: #"{"type": "string"}"#, expected: .format("date")),
        Row(name: "ip", schema: #"{"type": "string"}"#, expected: .format("ipv4")),
        Row(name: "hostname", schema: #"{"type": "string"}"#, expected: .format("hostname")),
        Row(name: "password", schema: #"{"type": "string"}"#, expected: .prefix("Pw-")),
        Row(name: "secret", schema: #"{"type": "string", "format": "password"}"#, expected: .prefix("Pw-")),
        // Names that only end like a kind are not taken for it.
        Row(name: "paid", schema: #"{"type": "string"}"#, expected: .plain(1...64)),
        Row(name: "format", schema: #"{"type": "string"}"#, expected: .plain(1...64)),
        Row(name: "title", schema: #"{"type": "string"}"#, expected: .plain(1...64)),
        // A format petkit makes wins over the name.
        Row(name: "email", schema: #"{"type": "string", "format": "uuid"}"#, expected: .format("uuid")),
        // x-faker wins over the name, as a key or an object of one key.
        Row(
            name: "x", schema: #"{"type": "string", "x-faker": "name.firstName"}"#,
            expected: .among(RealisticText.firstNames)),
        Row(name: "city", schema: #"{"type": "string", "x-faker": "internet.email"}"#, expected: .format("email")),
        Row(
            name: "x", schema: #"{"type": "string", "x-faker": {"address.city": []}}"#,
            expected: .among(RealisticText.cities)),
        Row(name: "x", schema: #"{"type": "string", "x-faker": "phone.phoneNumber"}"#, expected: .prefix("+1-555-")),
        Row(name: "x", schema: #"{"type": "string", "x-faker": "datatype.uuid"}"#, expected: .format("uuid")),
        // An x-faker value the schema refuses gives way to what the schema allows.
        Row(
            name: "x", schema: #"{"type": "string", "x-faker": "internet.email", "format": "uuid"}"#,
            expected: .format("uuid")),
        // pattern, lengths and enum win over the name.
        Row(name: "name", schema: #"{"type": "string", "pattern": "^[0-9]{3}$"}"#, expected: .format("digits")),
        Row(name: "email", schema: #"{"type": "string", "maxLength": 5}"#, expected: .plain(1...5)),
        Row(name: "city", schema: #"{"type": "string", "enum": ["Paris"]}"#, expected: .exactly("Paris")),
        Row(name: "city", schema: #"{"type": "string", "minLength": 30}"#, expected: .plain(30...64)),
    ]

    /// The body made for `{"NAME": SCHEMA}` with the seed, checked by the validator.
    static func value(_ row: Row, seed: UInt64?) throws -> String {
        let schema =
            #"{"type": "object", "required": ["\#(row.name)"], "properties": {"\#(row.name)": \#(row.schema)}}"#
        let body = try BodyGenerationTests.valid(schema, seed: seed)
        return try #require(body[row.name]?.stringValue, "\(body.serialized())")
    }

    @Test(arguments: rows) func aStringFollowsItsPropertysName(_ row: Row) throws {
        for seed in [nil, 1, 7] as [UInt64?] {
            let text = try Self.value(row, seed: seed)
            switch row.expected {
            case .among(let list): #expect(list.contains(text), "\(text)")
            case .format("digits"): #expect(text.count == 3 && text.allSatisfy(\.isNumber), "\(text)")
            case .format(let format): #expect(FormatCheck.matches(text, format: format), "\(text)")
            case .prefix(let prefix): #expect(text.hasPrefix(prefix), "\(text)")
            case .exactly(let expected): #expect(text == expected)
            case .plain(let lengths):
                #expect(lengths.contains(text.count) && text.allSatisfy { $0.isASCII && $0.isLowercase }, "\(text)")
                if seed == nil { #expect(text.hasPrefix("string") || "string".hasPrefix(text), "\(text)") }
            case .fullName:
                let words = text.split(separator: " ").map(String.init)
                #expect(words.count == 2 && RealisticText.firstNames.contains(words[0]), "\(text)")
                #expect(RealisticText.lastNames.contains(words.last ?? ""), "\(text)")
            }
        }
    }

    @Test func anArraysItemsFollowItsName() throws {
        let body = try BodyGenerationTests.valid(
            #"{"type": "object", "required": ["emails"], "properties": {"emails": {"type": "array", "items": {"type": "string"}}}}"#
        )
        let emails = try #require(body["emails"]?.arrayValue)
        #expect(!emails.isEmpty)
        for email in emails { #expect(FormatCheck.matches(email.stringValue ?? "", format: "email"), "\(email)") }
    }

    @Test func theSameSeedGivesTheSameText() throws {
        let schema =
            #"{"type": "object", "required": ["name", "city"], "properties": {"name": {"type": "string"}, "city": {"type": "string"}}}"#
        #expect(try BodyGenerationTests.valid(schema, seed: 3) == (try BodyGenerationTests.valid(schema, seed: 3)))
        #expect(try BodyGenerationTests.valid(schema) == (try BodyGenerationTests.valid(schema)))
        let names = Set(try (0..<12).map { try BodyGenerationTests.valid(schema, seed: UInt64($0))["name"] })
        #expect(names.count > 1)
    }

    @Test func anUnsupportedFakerKeyIsNamedInAWarning() throws {
        let document = try SchemaDocument(
            #"{"type": "object", "properties": {"a": {"type": "string", "x-faker": "internet.emial"}, "b": {"type": "string", "x-faker": "hacker.noun"}}}"#
        )
        let lines = document.contract.ignoredKeywords
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.contains("x-faker 'internet.emial'") == true, "\(lines)")
        #expect(lines.first?.contains("did you mean 'internet.email'") == true, "\(lines)")
        #expect(lines.last?.contains("'hacker.noun'") == true, "\(lines)")
        // The string is then made from the name and format.
        let body = try GeneratedBody.make(
            for: document.schema, in: document.contract, seed: GeneratedBody.Seed(key: "k")
        ).get()
        #expect(body["b"] == .string("string"))
    }

    @Test func aMalformedFakerIsAnError() throws {
        #expect(throws: ContractError.self) {
            try SchemaDocument(#"{"type": "string", "x-faker": 3}"#)
        }
    }

    @Test func xFakerIsReadAndWritten() throws {
        let document = try SchemaDocument(#"{"type": "string", "x-faker": "address.city"}"#)
        #expect(document.schema.faker == "address.city")
        let again = try OpenAPIReader().read(OpenAPIWriter().document(document.contract), source: "again")
        #expect(again.operations.first?.responses.first?.schema?.faker == "address.city")
    }
}
