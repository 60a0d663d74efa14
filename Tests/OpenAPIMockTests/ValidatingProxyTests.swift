import ContractKit
import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine
import OpenAPIMock
import StubFormat
import StubServerKit
import TestSupport
import Testing

/// `--proxy-unmatched` beside `--openapi`: a request the document admits goes to a live API
/// (a real server on port 0) and its answer is checked against the operation, the violations
/// in `Petmock-Violations` and the journal; a request the document refuses never leaves. And
/// an example that breaks its schema is journaled with its violations.
@Suite struct ValidatingProxyTests {
    static func server(proxyingTo target: String?, strict: Bool = false) throws -> StubServer {
        var configuration = StubServerConfiguration(port: 0, eventLoopCount: 1, proxyUnmatched: target)
        configuration.fallback = try ServerSwitchTests.responder(strict: strict)
        return try StubServer(stubsDirectory: nil, mappings: [], configuration: configuration)
    }

    @Test func theLiveAPIsAnswersAreCheckedAndJournaled() throws {
        let api = try LiveHTTPServer(
            handler: FixedRoutes([
                "/items/1": .init(body: #"{"id": "one", "name": "hammer"}"#),
                "/items/2": .init(body: #"{"id": 2, "name": "saw"}"#),
            ]))
        defer { api.stop() }
        let server = try Self.server(proxyingTo: api.baseURL)
        let bad = try server.answer("/items/1")
        #expect(bad.status == 200)
        #expect(bad.text == #"{"id": "one", "name": "hammer"}"#, "the live API's answer, not the example")
        #expect(bad.headers["Petmock-Violations"] == #"1; response.body.$.id: expected integer, found string "one""#)
        let good = try server.answer("/items/2")
        #expect(good.headers["Petmock-Violations"] == nil)
        #expect(good.text.contains("saw"))
        #expect(try server.answer("/items/abc").status == 400, "refused by the document, not passed on")
        let requests = server.admin.requests()
        let checked = try #require(requests.first { $0.url == "/items/1" })
        #expect(checked.documentOperation == "GET /items/{id}")
        #expect(checked.responseViolations.map(\.location) == ["response.body.$.id"])
        #expect(checked.violations.isEmpty)
        let events = try JSONValue(parsing: try server.answer("/__admin/requests").body)
        let event = try #require(events["requests"]?.arrayValue?.first { $0["request"]?["url"] == "/items/1" })
        #expect(event["petmockDocument"]?["responseViolations"]?[0]?["location"] == "response.body.$.id")
    }

    @Test func withErrorsTheLiveAPIsInvalidAnswerIsA502() throws {
        let api = try LiveHTTPServer(handler: FixedRoutes(["/items/1": .init(body: #"{"id": 1}"#)]))
        defer { api.stop() }
        let server = try Self.server(proxyingTo: api.baseURL, strict: true)
        let answer = try server.answer("/items/1")
        #expect(answer.status == 502)
        #expect(answer.text.contains("urn:petmock:problem:invalid-response"))
        #expect(server.admin.requests().first?.responseViolations.map(\.location) == ["response.body.$.name"])
    }

    /// A gateway error is petmock's own answer, not the live API's: it is not checked.
    @Test func anUnreachableLiveAPIIsAGatewayErrorNotAViolation() throws {
        let down = try ClosedPort()
        let server = try Self.server(proxyingTo: "http://127.0.0.1:\(down.port)", strict: true)
        let answer = try server.answer("/items/1")
        #expect(answer.status == 502)
        #expect(answer.headers["Petmock-Proxy-Error"] == "couldNotConnect")
        let entry = try #require(server.admin.requests().first)
        #expect(entry.responseViolations.isEmpty)
        #expect(entry.documentOperation == "GET /items/{id}")
        _ = down
    }

    /// A source that does not route requests to a live API answers as without one.
    @Test func aSourceWithoutForwardingAnswersAsBefore() throws {
        struct Fixed: FallbackReplySource {
            func reply(to request: HTTPServerRequest) -> FallbackAnswer? {
                FallbackAnswer(
                    PreparedResponse(HTTPResponse(status: .ok, body: Array("here".utf8))), operation: "GET /x")
            }
            func variantSources() -> (mappings: [StubMapping], operations: [VariantCatalog.OperationFields]) {
                ([], [])
            }
        }
        guard case .answer(let answer)? = Fixed().route(forwarding: HTTPServerRequest(method: .get, target: "/x"))
        else {
            Issue.record("expected the source's own answer")
            return
        }
        #expect(answer.response.response.body == Array("here".utf8))
        var configuration = StubServerConfiguration(port: 0, eventLoopCount: 1, proxyUnmatched: "http://127.0.0.1:9")
        configuration.fallback = Fixed()
        let server = try StubServer(stubsDirectory: nil, mappings: [], configuration: configuration)
        #expect(try server.answer("/x").text == "here")
    }

    @Test func anExampleThatBreaksItsSchemaIsJournaledWithItsViolations() throws {
        let server = try Self.server(proxyingTo: nil)
        #expect(try server.answer("/bad").headers["Petmock-Violations"] != nil)
        let entry = try #require(server.admin.requests().first)
        #expect(entry.responseViolations.map(\.location) == ["response.body.$.id"])
    }

    /// A live API's 501 for an operation that does not name 501 (nor 5XX) means "not yet": the
    /// document answers instead, as Prism's proxy does; a named 501 is the live API's answer.
    @Test(arguments: [("/a", 200, #""from the document""#), ("/b", 501, "not here"), ("/c", 501, "not here")])
    func aLiveNotImplementedIsAnsweredByTheDocument(path: String, status: Int, body: String) throws {
        let text = #"""
            {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {
              "/a": {"get": {"responses": {"200": {"description": "ok",
                "content": {"application/json": {"example": "from the document"}}}}}},
              "/b": {"get": {"responses": {"200": {"description": "ok"}, "501": {"description": "not yet"}}}},
              "/c": {"get": {"responses": {"200": {"description": "ok"}, "5XX": {"description": "down"}}}}}}
            """#
        let responder = OpenAPIResponder(contract: try OpenAPIReader().read(Array(text.utf8), source: "t.json"))
        let routing = responder.route(forwarding: HTTPServerRequest(method: .get, target: path, headers: [:]))
        guard case .forward(_, let check)? = routing else {
            Issue.record("not forwarded: \(String(describing: routing))")
            return
        }
        let (answer, violations) = check.check(
            HTTPResponse(
                status: HTTPStatus(code: 501), headers: ["Content-Type": "text/plain"], body: Array("not here".utf8)))
        #expect(answer.status.code == status)
        #expect(String(decoding: answer.body, as: UTF8.self) == body)
        #expect(violations.isEmpty)
    }
}
