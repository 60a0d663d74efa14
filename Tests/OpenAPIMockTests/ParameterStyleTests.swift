import APISchema
import ContractKit
import Foundation
import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine
import OpenAPIMock
import Testing

/// Object- and array-typed parameters in each of OpenAPI's styles (`form` exploded and not,
/// `deepObject`, `spaceDelimited`, `pipeDelimited`, `simple` headers, `matrix` paths), each
/// member read as its property says and checked by the one validator, and `allowReserved`: a
/// table of requests and the violations' locations each must give.
@Suite struct ParameterStyleTests {
    /// The document of `/items` (styled parameters) and `/upload` (form bodies), which the
    /// FuzzOpenAPIServing target serves too.
    static func contract() throws -> Contract {
        try OpenAPIReader().read(
            file: OpenAPIResponderTests.folder.appendingPathComponent("styles.openapi.json").path)
    }

    static func reply(_ target: String, headers: HTTPHeaders = [:]) throws -> FallbackAnswer {
        let contract = try Self.contract()
        let responder = OpenAPIResponder(contract: contract)
        let request = HTTPServerRequest(method: .get, target: target, headers: headers)
        return try #require(responder.reply(to: request))
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let target: String
        var headers: HTTPHeaders = [:]
        /// The violations' locations, in order; empty for a valid request.
        let locations: [String]
        var testDescription: String { "\(target) \(headers.fields.map(\.value)) -> \(locations)" }
    }

    static let rows: [Row] = [
        // form, exploded: the members are pairs of their own names.
        Row(target: "/items?color=red&size=2", locations: []),
        Row(target: "/items?color=green&size=2", locations: ["query.filter.color"]),
        Row(target: "/items?color=red&size=0", locations: ["query.filter.size"]),
        Row(target: "/items?size=x", locations: ["query.filter.size"]),
        // Another parameter's pair is not a member (additionalProperties is false).
        Row(target: "/items?color=red&q=x", locations: []),
        // form, exploded, a map: every pair no other parameter documents.
        Row(target: "/maps?a=1&b=2&limit=x", locations: []),
        Row(target: "/maps?a=1&b=two", locations: ["query.labels.b"]),
        Row(target: "/maps?__code=200&a=1", locations: []),
        // form, not exploded: names and values alternate.
        Row(target: "/items?box=w,100,h,200", locations: []),
        Row(target: "/items?box=w,wide", locations: ["query.box.w"]),
        Row(target: "/items?box=h,2", locations: ["query.box.w"]),
        Row(target: "/items?box=w,1,h", locations: ["query.box"]),
        Row(target: "/items?box=", locations: ["query.box.w"]),
        // deepObject: name[member], nested and repeated.
        Row(target: "/items?deep%5Bcolor%5D=red&deep%5Bsize%5D=3", locations: []),
        Row(target: "/items?deep%5Bcolor%5D=purple", locations: ["query.deep.color"]),
        Row(target: "/items?deep%5Bsize%5D=big", locations: ["query.deep.size"]),
        Row(target: "/items?deep%5Btags%5D=a&deep%5Btags%5D=b", locations: []),
        Row(target: "/items?deep%5Btags%5D=a&deep%5Btags%5D=b&deep%5Btags%5D=c", locations: ["query.deep.tags"]),
        Row(target: "/items?deep%5Brange%5D%5Bmin%5D=1", locations: []),
        Row(target: "/items?deep%5Brange%5D%5Bmin%5D=low", locations: ["query.deep.range.min"]),
        Row(target: "/items?deep=red", locations: ["query.deep"]),
        Row(target: "/items?deep" + String(repeating: "%5Ba%5D", count: 9) + "=1", locations: ["query.deep"]),
        Row(target: "/items?deep" + String(repeating: "%5Ba%5D", count: 8) + "=1", locations: []),
        // spaceDelimited and pipeDelimited objects, arrays exploded and not.
        Row(target: "/items?space=a%203", locations: []),
        Row(target: "/items?space=a+x", locations: ["query.space.a"]),
        Row(target: "/items?pipe=b|true", locations: []),
        Row(target: "/items?pipe=b|maybe", locations: ["query.pipe.b"]),
        Row(target: "/items?ids=1|2|3", locations: []),
        Row(target: "/items?ids=1|x", locations: ["query.ids[1]"]),
        Row(target: "/items?nums=1&nums=2", locations: []),
        Row(target: "/items?nums=1&nums=two", locations: ["query.nums[1]"]),
        // simple headers: R,100 and R=100.
        Row(target: "/items", headers: ["X-Point": "x,1,y,2"], locations: []),
        Row(target: "/items", headers: ["X-Point": "x,1,y,z"], locations: ["header.X-Point.y"]),
        Row(target: "/items", headers: ["X-Pos": "x=5"], locations: []),
        Row(target: "/items", headers: ["X-Pos": "x=five"], locations: ["header.X-Pos.x"]),
        Row(target: "/items", headers: ["X-Pos": "x"], locations: ["header.X-Pos"]),
        // matrix, exploded: `;R=100;G=200` in the path.
        Row(target: "/matrix/;R=100;G=200", locations: []),
        Row(target: "/matrix/;R=300", locations: ["path.color.R"]),
        Row(target: "/matrix/R=1", locations: ["path.color"]),
        // A query parameter's allowReserved is not enforced: reserved characters may stand
        // unencoded in a query (RFC 3986 §3.4), and URLComponents sends them so.
        Row(target: "/items?q=a%2Fb%3Ac", locations: []),
        Row(target: "/items?q=a/b", locations: []),
        Row(target: "/items?q=12:00", locations: []),
        Row(target: "/items?q=a+b", locations: []),
        Row(target: "/items?next=/page?n=2", locations: []),
        Row(target: "/items?ids=1|2&box=w,1", locations: []),
        Row(target: "/items?box=w,1:2", locations: ["query.box.w"]),
        Row(target: "/items?color=red/", locations: ["query.filter.color"]),
        Row(target: "/items?deep%5Bcolor%5D=a@b", locations: []),
    ]

    @Test(arguments: rows) func eachStyleIsReadAndChecked(_ row: Row) throws {
        let answer = try Self.reply(row.target, headers: row.headers)
        #expect(answer.violations.map(\.location) == row.locations, "\(answer.violations)")
        #expect(answer.response.response.status.code == (row.locations.isEmpty ? 200 : 400))
    }

    @Test func aDateTimeSentAsURLComponentsSendsItIsAccepted() throws {
        var components = URLComponents()
        components.path = "/items"
        components.queryItems = [URLQueryItem(name: "q", value: "2026-12-07T08:00:00Z")]
        let target = try #require(components.string)
        #expect(target.contains(":"))
        let answer = try Self.reply(target)
        #expect(answer.violations.isEmpty, "\(answer.violations)")
    }

    @Test func manyMembersAreReadInOnePass() throws {
        let many = (0..<2000).map { "deep%5Bk\($0)%5D=\($0)" }.joined(separator: "&")
        let answer = try Self.reply("/items?" + many)
        #expect(answer.response.response.status.code == 200)
    }

    @Test func allowReservedIsReadAndWritten() throws {
        let contract = try Self.contract()
        let next = try #require(contract.operation(named: "GET /items")?.parameters.first { $0.name == "next" })
        #expect(next.allowReserved)
        let again = try OpenAPIReader().read(OpenAPIWriter().document(contract), source: "again")
        #expect(again.operation(named: "GET /items")?.parameters.first { $0.name == "next" }?.allowReserved == true)
        #expect(again.operation(named: "GET /items")?.parameters.first { $0.name == "q" }?.allowReserved == false)
    }
}
