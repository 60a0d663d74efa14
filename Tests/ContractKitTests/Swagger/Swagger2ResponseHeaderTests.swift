import APISchema
import ContractKit
import JSONKit
import Testing

/// A Swagger 2.0 response header's `collectionFormat` as the converter reads it: `csv` (the
/// default) is 3.0's `style: simple`; the others have no 3.0 header form and are a warning
/// naming the header, where it is and the format, never dropped without a word.
@Suite struct Swagger2ResponseHeaderTests {
    static func header(_ fields: String) throws -> (header: JSONValue?, warnings: [String]) {
        let conversion = try Swagger2ConverterTests.convert(
            """
            paths:
              /a:
                get:
                  responses:
                    '200': {description: ok, headers: {X-Ids: {\(fields)}}}
            """)
        let response = Swagger2ConverterTests.at(conversion.document, "paths")?["/a"]?["get"]?["responses"]?["200"]
        return (response?["headers"]?["X-Ids"], conversion.warnings)
    }

    static let integers = #"{"type":"array","items":{"type":"integer"}}"#

    @Test(arguments: [", collectionFormat: csv", ""])
    func csvBecomesStyleSimple(format: String) throws {
        let (header, warnings) = try Self.header("type: array, items: {type: integer}\(format), description: ids")
        #expect(
            header
                == (try Swagger2ConverterTests.json(
                    #"{"description":"ids","style":"simple","explode":false,"schema":"# + Self.integers + "}")))
        #expect(warnings.isEmpty, "\(warnings)")
    }

    @Test(arguments: ["ssv", "tsv", "pipes", "multi"])
    func otherFormatsAreAWarningNamingTheHeaderItsPlaceAndTheFormat(format: String) throws {
        let (header, warnings) = try Self.header("type: array, items: {type: integer}, collectionFormat: \(format)")
        #expect(
            warnings == [
                "Swagger 2.0: 'collectionFormat: \(format)' of response header 'X-Ids' at "
                    + "#/paths/~1a/get/responses/200/headers/X-Ids/collectionFormat has no OpenAPI 3.0 equivalent "
                    + "(a header's only style is simple, comma-separated): the value is read as one string, not an array"
            ])
        #expect(header?["schema"] == (try Swagger2ConverterTests.json(#"{"type":"string"}"#)))
        #expect(header?["style"] == nil)
        #expect(header?["collectionFormat"] == nil)
    }

    @Test func nestedItemsCollectionFormatIsAWarning() throws {
        let (header, warnings) = try Self.header(
            "type: array, items: {type: array, items: {type: integer}, collectionFormat: pipes}")
        #expect(header?["style"] == "simple")
        #expect(
            warnings == [
                "Swagger 2.0: 'collectionFormat' string 'pipes' of the nested items of response header 'X-Ids' at "
                    + "#/paths/~1a/get/responses/200/headers/X-Ids/items/collectionFormat is not converted"
            ])
    }

    @Test func anUnknownFormatIsAnErrorAtItsPath() throws {
        #expect(
            throws: ContractError.invalidContract(
                file: "t.yaml", path: "$.paths['/a'].get.responses['200'].headers['X-Ids'].collectionFormat",
                expected: "a collectionFormat csv, ssv, tsv, pipes or multi", found: "string 'spaces'")
        ) {
            try Self.header("type: array, items: {type: integer}, collectionFormat: spaces")
        }
    }

    @Test func aCSVHeaderIsReadAsAnArrayOfItsItems() throws {
        let contract = try Swagger2ConverterTests.read(
            """
            paths:
              /a:
                get:
                  responses:
                    '200': {description: ok, headers: {X-Ids: {type: array, items: {type: integer}}}}
            """)
        #expect(contract.ignoredKeywords.isEmpty, "\(contract.ignoredKeywords)")
        let header = try #require(contract.operations.first?.responses.first?.headers.first)
        #expect(header.schema?.types == [.array])
    }
}
