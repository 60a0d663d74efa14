import Dispatch
import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import JSONKit
import Platform
import StubFormat
import TestSupport
import Testing

@testable import MockEngine
@testable import StubServerKit

/// Stubs' webhooks against live loopback receivers: the call's method, URL, headers and body
/// rendered from the triggering request, a receiver where nothing listens or that never
/// answers (recorded as failed, the client's answer unchanged), the bound on calls in
/// flight, and the admin route. Readiness is signalled (a semaphore, the server's events):
/// no sleeps, no timing assertions. The cases follow WireMock's webhook acceptance tests
/// (`WebhooksAcceptanceViaServeEventTest`, `FailingWebhookTest`; Apache-2.0).
@Suite struct WebhookTests {
    /// A receiver that answers 200 and signals each arrival.
    final class Receiver: Sendable {
        let server: LiveHTTPServer
        let arrival = Arrivals()

        /// `answering: false` never answers (the call waits until its timeout).
        init(answering: Bool = true) throws {
            let arrival = self.arrival
            server = try LiveHTTPServer { _ in
                defer { arrival.signal() }
                return answering ? .response(HTTPResponse(text: "thanks")) : .deferred(DeferredReply())
            }
        }

        /// Waits for the next call (bounded, so a broken build fails rather than hangs).
        /// Whether a call arrives within 20 s, waited for without holding a thread, which the
        /// tests running beside this one need.
        func awaitCall() async -> Bool {
            await arrival.next(timeout: 20)
        }
    }

    /// A port where nothing listens: bound, then closed.
    static func closedPort() throws -> Int {
        let server = try LiveHTTPServer { _ in .response(HTTPResponse(text: "")) }
        let port = server.port
        server.stop()
        return port
    }

    static func server(
        _ mapping: String, configure: (inout StubServerConfiguration) -> Void = { _ in }
    ) throws -> (StubServer, TemporaryStubs) {
        let folder = try TemporaryStubs()
        folder.write("mappings/hook.json", mapping)
        folder.write("__files/callback.json", #"{"from": "a file"}"#)
        let server = try startServer(stubs: folder.root, configure: configure)
        return (server, folder)
    }

    static func post(_ path: String, body: String, headers: String = "") -> String {
        "POST \(path) HTTP/1.1\r\nHost: localhost\r\n\(headers)Content-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }

    /// The first webhook event (a call that failed or was not sent).
    static func webhookEvent(_ events: AsyncStream<StubServerEvent>) async throws -> WebhookCall {
        let event = try await firstEvent(events, timeout: .seconds(20)) {
            if case .webhook = $0 { return true }
            return false
        }
        guard case .webhook(let call, _) = event else { throw FixtureError(description: "not a webhook event") }
        return call
    }

    // WebhooksAcceptanceViaServeEventTest.appliesTemplatingToUrlMethodHeadersAndBodyViaJSON, with
    // petmock's own client and libcurl.
    @Test(arguments: [true, false]) func theReceiverGetsTheCallRenderedFromTheRequest(native: Bool) async throws {
        let receiver = try Receiver()
        let mapping = #"""
            {"request": {"urlPath": "/templating", "method": "POST"}, "response": {"status": 201, "body": "made"},
             "serveEventListeners": [{"name": "webhook", "parameters": {
               "method": "{{jsonPath originalRequest.body '$.method'}}",
               "url": "\#(receiver.server.baseURL){{{jsonPath originalRequest.body '$.callbackPath'}}}",
               "headers": {"X-Single": "{{math 1 '+' 2}}", "X-Multi": ["{{math 3 'x' 2}}", "{{parameters.one}}"],
                           "X-Trace": "{{originalRequest.headers.X-Trace}}"},
               "body": "{{jsonPath originalRequest.body '$.name'}}", "one": "param-one-value"}}]}
            """#
        let (server, folder) = try Self.server(mapping) { $0.upstream.nativeClient = native }
        defer { server.stop() }
        _ = folder
        let client = try RawClient(port: server.port)
        try client.send(
            Self.post(
                "/templating", body: #"{"callbackPath": "/callback/123", "method": "POST", "name": "Tom"}"#,
                headers: "X-Trace: t-9\r\n"))
        let response = try client.readResponse()
        #expect(response.status == 201)
        #expect(response.text == "made")
        #expect(await receiver.awaitCall())
        let call = try #require(receiver.server.requests.first)
        #expect(call.method == .post)
        #expect(call.head.target == "/callback/123")
        #expect(call.headers["X-Single"] == "3")
        #expect(call.headers.values(name: "X-Multi") == ["6", "param-one-value"])
        #expect(call.headers["X-Trace"] == "t-9")
        #expect(String(decoding: call.body, as: UTF8.self) == "Tom")
    }

    // The delay runs on the loop's timer; a GET carries no body; a body file is sent as read.
    @Test func aDelayedCallArrivesAndAFileBodyIsSent() async throws {
        let receiver = try Receiver()
        let mapping = #"""
            {"request": {"url": "/delayed"},
             "serveEventListeners": [
               {"name": "webhook", "parameters": {"url": "\#(receiver.server.url("/get"))",
                 "delay": {"type": "fixed", "milliseconds": 30}, "body": "dropped"}},
               {"name": "webhook", "parameters": {"method": "POST", "url": "\#(receiver.server.url("/file"))",
                 "bodyFileName": "callback.json"}}]}
            """#
        let (server, folder) = try Self.server(mapping)
        defer { server.stop() }
        _ = folder
        let client = try RawClient(port: server.port)
        try client.send(get("/delayed"))
        #expect(try client.readResponse().status == 200)
        #expect(await receiver.awaitCall())
        #expect(await receiver.awaitCall())
        let calls = receiver.server.requests
        let getCall = try #require(calls.first { $0.head.target == "/get" })
        #expect(getCall.method == .get && getCall.body.isEmpty)
        let fileCall = try #require(calls.first { $0.head.target == "/file" })
        #expect(String(decoding: fileCall.body, as: UTF8.self) == #"{"from": "a file"}"#)
    }

    // FailingWebhookTest: nothing listens; the answer stays, the call is recorded as failed,
    // and the admin route lists it.
    @Test func aCallWhereNothingListensIsRecordedAsFailed() async throws {
        let port = try Self.closedPort()
        let mapping = #"""
            {"name": "orders", "request": {"url": "/orders", "method": "POST"}, "response": {"status": 202, "body": "queued"},
             "serveEventListeners": [{"name": "webhook", "parameters": {"method": "POST",
               "url": "http://127.0.0.1:\#(port)/callback-errors", "body": "x"}}]}
            """#
        let (server, folder) = try Self.server(mapping)
        defer { server.stop() }
        _ = folder
        let events = server.events()
        let client = try RawClient(port: server.port)
        try client.send(Self.post("/orders", body: "{}"))
        let response = try client.readResponse()
        #expect(response.status == 202)
        #expect(response.text == "queued")
        let call = try await Self.webhookEvent(events)
        #expect(call.outcome == "failed")
        #expect(call.url == "http://127.0.0.1:\(port)/callback-errors")
        #expect(call.request == "POST /orders")
        #expect(call.stubName == "orders")
        #expect(call.error?.isEmpty == false)
        #expect(call.description.contains("failed after"))

        let listing = try server.answer("GET", "/__admin/petmock/webhooks")
        #expect(listing.status == 200)
        let json = try JSONValue(parsing: listing.text)
        let first = try #require(json.objectValue?["webhooks"]?.arrayValue?.first?.objectValue)
        #expect(first["outcome"] == "failed")
        #expect(first["method"] == "POST")
        #expect(first["request"] == "POST /orders")
        #expect(first["stubName"] == "orders")
        #expect(first["error"]?.stringValue?.isEmpty == false)
        #expect(first["status"] == nil)
    }

    // FailingWebhookTest: a receiver that never answers; the call times out.
    @Test func aCallThatNeverGetsAnAnswerTimesOut() async throws {
        let receiver = try Receiver(answering: false)
        let mapping = #"""
            {"request": {"url": "/slow"}, "response": {"status": 200, "body": "fast"},
             "serveEventListeners": [{"name": "webhook", "parameters": {"url": "\#(receiver.server.url("/never"))"}}]}
            """#
        let (server, folder) = try Self.server(mapping) { $0.upstream.webhookTimeout = .milliseconds(200) }
        defer { server.stop() }
        _ = folder
        let events = server.events()
        let client = try RawClient(port: server.port)
        try client.send(get("/slow"))
        let response = try client.readResponse()
        #expect(response.status == 200 && response.text == "fast")
        let call = try await Self.webhookEvent(events)
        #expect(call.outcome == "failed")
        #expect(server.admin.webhookCalls().calls.map(\.outcome) == ["failed"])
    }

    // Beyond the calls in flight allowed, a call is not sent and says why.
    @Test func callsBeyondTheBoundAreRefused() async throws {
        let receiver = try Receiver(answering: false)
        let mapping = #"""
            {"request": {"url": "/busy"}, "response": {"status": 200},
             "serveEventListeners": [{"name": "webhook", "parameters": {"url": "\#(receiver.server.url("/hold"))"}}]}
            """#
        // The held call stays in flight however slow the machine (a sanitizer run): its timeout
        // is far past the test's own bound.
        let (server, folder) = try Self.server(mapping) {
            $0.upstream.maxWebhooksInFlight = 1
            $0.upstream.webhookTimeout = .seconds(600)
        }
        defer { server.stop() }
        _ = folder
        let events = server.events()
        let client = try RawClient(port: server.port)
        try client.send(get("/busy"))
        #expect(try client.readResponse().status == 200)
        #expect(await receiver.awaitCall())
        // A new connection: the first may have been closed as idle while the call was awaited.
        let second = try RawClient(port: server.port)
        try second.send(get("/busy"))
        #expect(try second.readResponse().status == 200)
        let call = try await Self.webhookEvent(events)
        #expect(call.outcome == "refused")
        #expect(call.error?.contains("1 webhook calls are waiting or under way") == true)
        #expect(receiver.server.requests.count == 1)
    }

    // A templated URL is checked once rendered: a request cannot steer the call elsewhere.
    @Test func aURLThatRendersToAnotherSchemeIsNotCalled() async throws {
        let mapping = #"""
            {"request": {"url": "/steer"}, "response": {"status": 200, "body": "ok"},
             "serveEventListeners": [{"name": "webhook", "parameters": {"url": "{{originalRequest.headers.X-Callback}}"}}]}
            """#
        let (server, folder) = try Self.server(mapping)
        defer { server.stop() }
        _ = folder
        let events = server.events()
        let client = try RawClient(port: server.port)
        try client.send(get("/steer", headers: "X-Callback: file:///etc/passwd\r\n"))
        #expect(try client.readResponse().text == "ok")
        let call = try await Self.webhookEvent(events)
        #expect(call.outcome == "refused")
        #expect(call.error?.contains("the url rendered") == true)
    }

    // A body file outside `__files/` is refused at load, through the body file resolver.
    @Test func aBodyFileOutsideTheFilesFolderIsALoadError() throws {
        let mapping = #"""
            {"request": {"url": "/x"}, "serveEventListeners": [{"name": "webhook",
              "parameters": {"url": "http://127.0.0.1:1/", "bodyFileName": "../mappings/hook.json"}}]}
            """#
        let (server, folder) = try Self.server(mapping)
        defer { server.stop() }
        _ = folder
        let problems = server.admin.loadProblems()
        #expect(
            problems.contains { $0.isError && $0.path.hasPrefix("$.serveEventListeners[0].parameters") },
            "\(problems)")
    }
}
