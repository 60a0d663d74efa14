import EndpointKit
import Foundation
import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import LoopbackStubs
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A loopback stub server seen from another client, as an app under a UI test sees it: stubs
/// over a real socket to a URLSession, upstreams reached through a URLSession, its port freed
/// when it stops.
@Suite struct LoopbackStubServerTests {
    /// The greeting of the test bundle's stub folder.
    static let greeting = #"{"greeting":"hello from the bundle"}"#

    @Test func aStubOfTheBundlesFolderIsServedOverASocketToAURLSession() async throws {
        let server = try LoopbackStubServer(bundle: .module)
        try server.start()
        defer { server.stop() }
        #expect(server.port > 0)
        #expect(server.baseURL == "http://127.0.0.1:\(server.port)")
        let answer = try await fetch(server.baseURL + "/api/greeting")
        #expect(answer.status == 200)
        #expect(answer.text == Self.greeting)
        #expect(server.requests.map(\.url) == ["/api/greeting"])
    }

    @Test func theVariantGivenAtStartShapesEveryAnswerAndCanChange() async throws {
        let server = try LoopbackStubServer(bundle: .module, variant: "missing:greeting")
        try server.start()
        defer { server.stop() }
        #expect(try await fetch(server.baseURL + "/api/greeting").text == "{}")
        try server.setVariant(nil)
        #expect(try await fetch(server.baseURL + "/api/greeting").text == Self.greeting)
    }

    @Test func theAdminAPIIsServedOnTheSamePort() async throws {
        let server = try LoopbackStubServer(bundle: .module)
        try server.start()
        defer { server.stop() }
        let answer = try await fetch(server.baseURL + "/__admin/mappings")
        #expect(answer.status == 200)
        #expect(answer.text.contains("/api/greeting"))
    }

    @Test func aProxyStubReachesItsUpstreamThroughAURLSession() async throws {
        let upstream = try LiveHTTPServer { request in
            .response(HTTPResponse(text: "live \(request.method.rawValue) \(request.head.target)"))
        }
        defer { upstream.stop() }
        let mapping = try StubMapping(
            json: #"{"request": {"urlPathPattern": "/live/.*"}, "response": {"proxyBaseUrl": "\#(upstream.url(""))"}}"#)
        let server = try LoopbackStubServer(mappings: [mapping])
        try server.start()
        defer { server.stop() }
        let answer = try await fetch(server.baseURL + "/live/pets?limit=2")
        #expect(answer.status == 200, "\(String(describing: answer.error))")
        #expect(answer.text == "live GET /live/pets?limit=2")
        #expect(upstream.requests.count == 1)
        #expect(server.requests.first?.wasProxied == true)
    }

    @Test func unmatchedRequestsGoToProxyUnmatchedThroughAURLSession() async throws {
        let upstream = try LiveHTTPServer { request in .response(HTTPResponse(text: "live \(request.head.target)")) }
        defer { upstream.stop() }
        let server = try LoopbackStubServer(
            stubsDirectory: nil, mappings: [], configuration: StubHandlerConfiguration(proxyUnmatched: upstream.url(""))
        )
        try server.start()
        defer { server.stop() }
        let answer = try await fetch(server.baseURL + "/elsewhere")
        #expect(answer.text == "live /elsewhere", "\(String(describing: answer.error))")
    }

    @Test func upstreamRequestsAreSentByURLSessionsTransportNotLibcurl() {
        // The clients the server gives its engine: the one kind of transport they make.
        let transport = UpstreamClients.urlSession(nil).makeTransport(UpstreamSettings())
        #expect(transport is URLSessionTransport)
    }

    @Test func aWebhookIsSentThroughAURLSessionAfterTheAnswer() async throws {
        let arrival = Arrivals()
        let receiver = try LiveHTTPServer { _ in
            defer { arrival.signal() }
            return .response(HTTPResponse(status: .noContent))
        }
        defer { receiver.stop() }
        let mapping = try StubMapping(
            json: #"""
                {"request": {"method": "POST", "url": "/api/orders"}, "response": {"status": 202, "body": "queued"},
                 "serveEventListeners": [{"name": "webhook", "parameters": {"method": "POST",
                   "url": "\#(receiver.url("/callback"))", "body": "order {{jsonPath originalRequest.body '$.id'}}"}}]}
                """#)
        let server = try LoopbackStubServer(mappings: [mapping])
        try server.start()
        defer { server.stop() }
        var request = URLRequest(url: try #require(URL(string: server.baseURL + "/api/orders")))
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"id": 42}"#.utf8)
        let answer = await fetch(request)
        #expect(answer.status == 202 && answer.text == "queued")
        #expect(await arrival.next(timeout: 20))
        let call = try #require(receiver.requests.first)
        #expect(call.method == .post && call.head.target == "/callback")
        #expect(String(decoding: call.body, as: UTF8.self) == "order 42")
    }

    @Test func stopFreesThePortForTheNextServer() async throws {
        let first = try LoopbackStubServer(bundle: .module)
        try first.start()
        let port = first.port
        first.stop()
        let second = try LoopbackStubServer(bundle: .module, port: port)
        try second.start()
        defer { second.stop() }
        #expect(second.port == port)
        #expect(try await fetch(second.baseURL + "/api/greeting").status == 200)
    }

    @Test func aServerLetGoOfWithoutStopFreesItsPort() throws {
        var port = 0
        do {
            let dropped = try LoopbackStubServer(bundle: .module)
            try dropped.start()
            port = dropped.port
        }
        let next = try LoopbackStubServer(bundle: .module, port: port)
        try next.start()
        defer { next.stop() }
        #expect(next.port == port)
    }

    @Test func aSecondServerOnATakenPortIsRefusedWithTheAddress() throws {
        let first = try LoopbackStubServer(bundle: .module)
        try first.start()
        defer { first.stop() }
        let second = try LoopbackStubServer(bundle: .module, port: first.port)
        #expect(throws: HTTPServerError.bindFailed(host: "127.0.0.1", port: first.port, errno: EADDRINUSE)) {
            try second.start()
        }
    }

    @Test func aMissingStubFolderIsAClearErrorNamingIt() throws {
        let missing = "/nonexistent/petkit-loopback-stubs"
        #expect {
            _ = try LoopbackStubServer(stubsDirectory: missing)
        } throws: { error in
            guard case .load(.rootNotFound(let path))? = error as? StubSetupError else { return false }
            return path == missing && "\(error)".contains(missing)
        }
    }

    @Test func aBundleWithoutTheFolderIsAClearErrorNamingWhereItLooked() throws {
        #expect {
            _ = try LoopbackStubServer(bundle: .module, subdirectory: "NoSuchStubs")
        } throws: { error in
            guard case .load(.rootNotFound(let path))? = error as? StubSetupError else { return false }
            return path.hasSuffix("/NoSuchStubs")
        }
    }

    @Test func aStrictServerRefusesAFolderWithABrokenMapping() throws {
        let folder = try TemporaryDirectory(files: ["mappings/broken.json": #"{"request": {"method": 7}}"#])
        defer { folder.remove() }
        #expect {
            _ = try LoopbackStubServer(
                stubsDirectory: folder.path, configuration: StubHandlerConfiguration(strict: true))
        } throws: { error in
            guard case .load(.invalidStubs(let problems))? = error as? StubSetupError else { return false }
            return problems.contains { $0.file.hasSuffix("broken.json") }
        }
    }
}
