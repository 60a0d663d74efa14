import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import JSONKit
import TestSupport
import Testing

@testable import MockEngine
@testable import StubFormat
@testable import StubServerKit

/// A proxy stub's state listeners and webhooks against a live loopback upstream: the listeners
/// read the upstream's answer as the client gets it (`response.status`, `response.body`,
/// `response.headers`, the stub's `headers` set on it), and their change is there before the
/// client has its answer, as WireMock runs them before the proxied response is sent.
@Suite struct ProxyStateTests {
    /// An upstream that answers every request with a 201, a JSON body naming a new id and the
    /// path it was asked, and an `X-Upstream-Id` field.
    static func upstream() throws -> LiveHTTPServer {
        try LiveHTTPServer { request in
            let body: JSONValue = ["id": "t-7", "path": .string(String(request.path))]
            return .response(
                HTTPResponse(
                    status: .created, headers: ["Content-Type": "application/json", "X-Upstream-Id": "t-7"],
                    body: body.serializedBytes()))
        }
    }

    static func mapping(_ base: String, listeners: String) -> String {
        #"""
        {"request": {"method": "ANY", "urlPathPattern": "/api/.*"},
         "response": {"proxyBaseUrl": "\#(base)", "proxyUrlPrefixToRemove": "/api", "headers": {"X-Stub": "s"}},
         "serveEventListeners": \#(listeners)}
        """#
    }

    static let recordEverything = #"""
        [{"name": "recordState", "parameters": {"context": "{{jsonPath response.body '$.id'}}",
           "state": {"status": "{{response.status}}", "upstream": "{{response.headers.X-Upstream-Id}}",
                     "stub": "{{response.headers.X-Stub}}", "path": "{{jsonPath response.body '$.path'}}",
                     "asked": "{{request.path}}", "title": "{{jsonPath request.body '$.title'}}"}}},
         {"name": "recordState", "parameters": {"context": "made", "list": {"addLast": {"id": "{{jsonPath response.body '$.id'}}"}}}}]
        """#

    @Test(arguments: [true, false]) func listenersReadTheUpstreamsAnswer(native: Bool) throws {
        let upstream = try Self.upstream()
        defer { upstream.stop() }
        let folder = try TemporaryStubs()
        folder.write("mappings/proxy.json", Self.mapping(upstream.baseURL, listeners: Self.recordEverything))
        let server = try startServer(stubs: folder.root) { $0.upstream.nativeClient = native }
        defer { server.stop() }
        #expect(server.loadProblems.isEmpty, "a proxy stub's listeners load: \(server.loadProblems)")
        let answer = try fetch(server.port, "POST", "/api/todos", body: #"{"title": "milk"}"#)
        #expect(answer.status == 201 && answer.headers["X-Stub"] == "s")
        // Written before the client had its answer: read at once, with no wait.
        let context = try #require(server.admin.stateContext(named: "t-7"))
        #expect(
            context.properties
                == [
                    "status": "201", "upstream": "t-7", "stub": "s", "path": "/todos", "asked": "/api/todos",
                    "title": "milk",
                ],
            "\(context.properties)")
        #expect(server.admin.stateContext(named: "made")?.list == [["id": "t-7"]])
        #expect(server.admin.requests().first?.problem == nil)
        #expect(server.admin.requests().first?.wasProxied == true)
    }

    /// No upstream answer: the listeners read petmock's 502 (its `Petmock-Proxy-Error` field),
    /// so a stub can record the failure.
    @Test func listenersReadTheGatewayErrorWhenTheUpstreamIsDown() throws {
        let port = try WebhookTests.closedPort()
        let folder = try TemporaryStubs()
        let listeners = #"""
            [{"name": "recordState", "parameters": {"context": "last",
               "state": {"status": "{{response.status}}", "error": "{{response.headers.Petmock-Proxy-Error}}"}}}]
            """#
        folder.write("mappings/proxy.json", Self.mapping("http://127.0.0.1:\(port)", listeners: listeners))
        let server = try startServer(stubs: folder.root)
        defer { server.stop() }
        #expect(try fetch(server.port, "/api/x").status == 502)
        #expect(
            server.admin.stateContext(named: "last")?.properties == ["status": "502", "error": "couldNotConnect"],
            "\(String(describing: server.admin.stateContext(named: "last")))")
    }

    /// A proxy stub's listener that cannot change the store keeps the upstream's answer and is
    /// the request's problem in the journal, as a canned stub's is.
    @Test func aRefusedChangeIsTheProxiedRequestsProblem() throws {
        let upstream = try Self.upstream()
        defer { upstream.stop() }
        let folder = try TemporaryStubs()
        let listeners = #"""
            [{"name": "deleteState", "parameters": {"context": "c", "list": {"deleteIndex": "{{response.headers.X-Stub}}"}}}]
            """#
        folder.write("mappings/proxy.json", Self.mapping(upstream.baseURL, listeners: listeners))
        let server = try startServer(stubs: folder.root)
        defer { server.stop() }
        #expect(try fetch(server.port, "/api/x").status == 201)
        let problem = try #require(server.admin.requests().first?.problem)
        #expect(problem.kind == .stateRefused && problem.message.contains("not an integer"), "\(problem.message)")
        #expect(server.admin.requests().first?.wasProxied == true, "the upstream's result is journaled beside it")
    }

    /// A server's handler asked with no socket forwards on the threaded path (no event loop,
    /// libcurl's I/O thread): the listeners run there too.
    @Test func listenersRunOnTheThreadedPath() throws {
        let upstream = try Self.upstream()
        defer { upstream.stop() }
        let mapping = try StubMapping(json: Self.mapping(upstream.baseURL, listeners: Self.recordEverything))
        let server = try makeServer(mappings: [mapping])
        #expect(try server.answer("POST", "/api/a", body: #"{"title": "eggs"}"#).status == 201)
        #expect(server.admin.stateContext(named: "t-7")?.properties["title"] == "eggs")
    }
}
