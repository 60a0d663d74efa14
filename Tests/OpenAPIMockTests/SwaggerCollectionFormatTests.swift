import APISchema
import ContractKit
import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine
import OpenAPIMock
import Testing

/// Swagger 2.0's `collectionFormat: tsv` served: a query, path and header array and a form field
/// sent as one tab-separated value, each item read as the array's items say and checked by the
/// one validator: a table of requests and the violations' locations each must give.
@Suite struct SwaggerCollectionFormatTests {
    static let document = """
        swagger: '2.0'
        info: {title: tsv, version: '1'}
        paths:
          /items/{ids}:
            post:
              consumes: [application/x-www-form-urlencoded]
              parameters:
              - {name: ids, in: path, required: true, type: array, items: {type: integer}, collectionFormat: tsv}
              - {name: tags, in: query, type: array, items: {type: string, enum: [a, b]}, collectionFormat: tsv}
              - {name: X-Sizes, in: header, type: array, items: {type: integer, minimum: 1}, collectionFormat: tsv}
              - {name: codes, in: formData, type: array, items: {type: integer}, maxItems: 2, collectionFormat: tsv}
              responses: {'200': {description: ok, examples: {application/json: {}}}}
        """

    static func reply(_ target: String, headers: HTTPHeaders = [:], body: String = "") throws -> FallbackAnswer {
        let json = try OpenAPIReader.document(Array(document.utf8), source: "tsv.yaml")
        let contract = try OpenAPIReader().read(json, source: "tsv.yaml")
        #expect(contract.ignoredKeywords.isEmpty, "\(contract.ignoredKeywords)")
        var headers = headers
        if !body.isEmpty { headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded") }
        let request = HTTPServerRequest(method: .post, target: target, headers: headers, body: Array(body.utf8))
        return try #require(OpenAPIResponder(contract: contract).reply(to: request))
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let target: String
        var headers: HTTPHeaders = [:]
        var body = ""
        /// The violations' locations, in order; empty for a valid request.
        let locations: [String]
        var testDescription: String { "\(target) \(headers.fields.map(\.value)) \(body) -> \(locations)" }
    }

    static let rows: [Row] = [
        Row(target: "/items/1%092%093", locations: []),
        Row(target: "/items/7", locations: []),
        Row(target: "/items/1%09x", locations: ["path.ids[1]"]),
        // A comma is not tsv's separator: the one item is not an integer.
        Row(target: "/items/1,2", locations: ["path.ids[0]"]),
        Row(target: "/items/1?tags=a%09b", locations: []),
        Row(target: "/items/1?tags=a%09c", locations: ["query.tags[1]"]),
        Row(target: "/items/1", headers: ["X-Sizes": "3\t4"], locations: []),
        Row(target: "/items/1", headers: ["X-Sizes": "3\t0"], locations: ["header.X-Sizes[1]"]),
        Row(target: "/items/1", body: "codes=1%092", locations: []),
        Row(target: "/items/1", body: "codes=1%092%093", locations: ["body.$.codes"]),
        Row(target: "/items/1", body: "codes=1%09z", locations: ["body.$.codes[1]"]),
    ]

    @Test(arguments: rows) func eachTabSeparatedValueIsSplitAndChecked(_ row: Row) throws {
        let answer = try Self.reply(row.target, headers: row.headers, body: row.body)
        #expect(answer.violations.map(\.location) == row.locations, "\(answer.violations)")
        let status = answer.response.response.status.code
        #expect(row.locations.isEmpty ? status == 200 : status == 400 || status == 422, "\(status)")
    }
}
