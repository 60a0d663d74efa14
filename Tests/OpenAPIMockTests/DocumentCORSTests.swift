import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine
import OpenAPIMock
import StubFormat
import StubServerKit
import TestSupport
import Testing

/// CORS with a document (`petmock serve --openapi`, where it is on by default): a browser's
/// preflight is answered before the document's 405, a stub mapping OPTIONS still wins, and the
/// document's answers, refusals included, allow the origin and expose their fields.
@Suite struct DocumentCORSTests {
    static func server(cors: Bool = true, mappings: [StubMapping] = []) throws -> StubServer {
        var configuration = StubServerConfiguration(port: 0, eventLoopCount: 1)
        configuration.fallback = OpenAPIResponder(contract: try OpenAPIResponderTests.contract())
        configuration.cors = cors
        return try StubServer(stubsDirectory: nil, mappings: mappings, configuration: configuration)
    }

    static let origin = ("Origin", "http://localhost:5173")
    static let preflight = [
        origin, ("Access-Control-Request-Method", "POST"), ("Access-Control-Request-Headers", "content-type"),
    ]

    @Test func aPreflightIsA204WhereTheDocumentWouldSay405() throws {
        let server = try Self.server()
        let answer = try server.answer("OPTIONS", "/v2/items", headers: Self.preflight)
        #expect(answer.status == 204)
        #expect(answer.header("Access-Control-Allow-Origin") == "http://localhost:5173")
        #expect(answer.header("Access-Control-Allow-Methods") == "POST")
        #expect(answer.header("Access-Control-Allow-Headers") == "content-type")
        #expect(answer.header("Access-Control-Max-Age") == "1800")
        #expect(answer.header("Allow") == nil)
        let entry = try #require(server.admin.requests().first)
        #expect(entry.isPreflight && entry.responseStatus == 204 && entry.documentOperation == nil)

        // An OPTIONS that is not a preflight is the document's, as before (with the fields, for its Origin).
        let plain = try server.answer("OPTIONS", "/v2/items", headers: [Self.origin])
        #expect(plain.status == 405)
        #expect(plain.header("Allow")?.contains("GET") == true)
        #expect(plain.header("Access-Control-Allow-Origin") == "http://localhost:5173")
        #expect(plain.header("Access-Control-Expose-Headers")?.contains("Allow") == true)

        // CORS off: the preflight gets the document's 405, and no field is added.
        let off = try Self.server(cors: false).answer("OPTIONS", "/v2/items", headers: Self.preflight)
        #expect(off.status == 405)
        #expect(off.header("Access-Control-Allow-Origin") == nil)
    }

    @Test func aStubMappingOptionsWinsOverThePreflight() throws {
        let stub = StubMapping(
            request: RequestPattern(method: .options, url: .urlPath("/v2/items")),
            response: ResponseDefinition(status: 200, headers: ["Access-Control-Allow-Origin": "https://mine.test"]))
        let server = try Self.server(mappings: [stub])
        let answer = try server.answer("OPTIONS", "/v2/items", headers: Self.preflight)
        #expect(answer.status == 200)
        #expect(answer.headers.values(name: "Access-Control-Allow-Origin") == ["https://mine.test"])
        #expect(answer.header("Access-Control-Allow-Methods") == nil)
        #expect(server.admin.requests().first?.isPreflight == false)
    }

    @Test func theDocumentsAnswersAllowTheOriginAndExposeTheirFields() throws {
        let server = try Self.server()
        let items = try server.answer("/v2/items", headers: [Self.origin])
        #expect(items.status == 200)
        #expect(items.header("Access-Control-Allow-Origin") == "http://localhost:5173")
        #expect(items.header("Access-Control-Allow-Credentials") == "true")
        let exposed = try #require(items.header("Access-Control-Expose-Headers"))
        #expect(exposed.contains("X-Total-Count") && exposed.contains("X-Request-Id"), "\(exposed)")
        #expect(!exposed.contains("Content-Type"), "\(exposed)")
        #expect(items.headers.values(name: "Vary").contains("Origin"))

        // The document's 404 and petmock's own near-miss 404 alike.
        for target in ["/v2/nowhere", "/elsewhere"] {
            let refused = try server.answer(target, headers: [Self.origin])
            #expect(refused.status == 404, "\(target)")
            #expect(refused.header("Access-Control-Allow-Origin") == "http://localhost:5173", "\(target)")
        }
        // Without Origin: the prepared answer as it was, no field added.
        let plain = try server.answer("/v2/items")
        #expect(plain.header("Access-Control-Allow-Origin") == nil)
        #expect(!plain.headers.values(name: "Vary").contains("Origin"))
    }
}
