import APISchema
import ContractKit
import Dispatch
import HTTPCore
import HTTPHandlerKit
import JSONKit
import OpenAPIMock
import TestSupport
import Testing

@testable import MockEngine
@testable import StubServerKit

/// An OpenAPI operation's `callbacks` served by `petmock serve --openapi`: after the answer, the
/// URL its runtime expression names in the request is called with the callback's method,
/// required header and a body generated from its schema; a URL the request does not give, and
/// a receiver that is down, are logged with the webhooks' outcomes and leave the answer alone.
/// Live loopback receivers on port 0, readiness by semaphore and the server's events: no sleeps.
@Suite struct CallbackTests {
    static let document = #"""
        {"openapi": "3.1.0", "info": {"title": "callbacks", "version": "1"},
         "paths": {
          "/subscribe": {
           "post": {
            "requestBody": {"content": {"application/json": {"schema": {"type": "object"}}}},
            "responses": {"201": {"description": "subscribed",
              "content": {"application/json": {"schema": {"type": "object", "required": ["id"],
                "properties": {"id": {"type": "integer", "const": 42}}}}}}},
            "callbacks": {"onEvent": {"{$request.body#/callbackUrl}": {"post": {
              "parameters": [{"name": "X-Event", "in": "header", "required": true,
                              "schema": {"type": "string", "enum": ["created"]}}],
              "requestBody": {"required": true, "content": {"application/json": {"schema": {
                "type": "object", "required": ["state", "count"],
                "properties": {"state": {"type": "string", "enum": ["ready"]},
                               "count": {"type": "integer", "minimum": 3, "maximum": 3}}}}}},
              "responses": {"200": {"description": "ok"}}}}}}
           },
           "get": {
            "parameters": [{"name": "url", "in": "query", "schema": {"type": "string"}}],
            "responses": {"200": {"description": "ok"}},
            "callbacks": {"ping": {"{$request.query.url}/ping/{$response.body#/missing}": {"put": {
              "responses": {"200": {"description": "ok"}}}}},
              "query": {"{$request.query.url}": {"get": {"responses": {"200": {"description": "ok"}}}}}}
           }
          }
         }}
        """#

    /// A receiver that answers 200 and signals each arrival.
    final class Receiver: Sendable {
        let server: LiveHTTPServer
        let arrival = Arrivals()

        init() throws {
            let arrival = self.arrival
            server = try LiveHTTPServer { _ in
                defer { arrival.signal() }
                return .response(HTTPResponse(text: "thanks"))
            }
        }

        /// Whether a call arrives within 20 s, waited for without holding a thread, which the
        /// tests running beside this one need.
        func awaitCall() async -> Bool {
            await arrival.next(timeout: 20)
        }
    }

    static func server() throws -> StubServer {
        var configuration = StubServerConfiguration(port: 0, eventLoopCount: 1)
        configuration.fallback = OpenAPIResponder(
            contract: try OpenAPIReader().read(Array(document.utf8), source: "callbacks.json"))
        let server = try StubServer(stubsDirectory: nil, mappings: [], configuration: configuration)
        try server.start()
        return server
    }

    /// The first failed or refused call the server tells of.
    static func untoldCall(_ events: AsyncStream<StubServerEvent>) async throws -> WebhookCall {
        let found = try await withThrowingTaskGroup(of: WebhookCall?.self) { group in
            group.addTask {
                for await event in events { if case .webhook(let call, _) = event { return call } }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: .seconds(20))
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        return try #require(found)
    }

    static func post(_ body: String) -> String {
        "POST /subscribe HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }

    @Test func aURLInTheBodyIsCalledWithAGeneratedBody() async throws {
        let receiver = try Receiver()
        let server = try Self.server()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send(Self.post(#"{"callbackUrl": "\#(receiver.server.url("/events"))"}"#))
        let response = try client.readResponse()
        #expect(response.status == 201)
        #expect(try JSONValue(parsing: response.text) == ["id": 42])
        #expect(await receiver.awaitCall())
        let call = try #require(receiver.server.requests.first)
        #expect(call.method == .post)
        #expect(call.head.target == "/events")
        #expect(call.headers["X-Event"] == "created")
        #expect(call.headers["Content-Type"] == "application/json")
        #expect(try JSONValue(parsing: call.body) == ["state": "ready", "count": 3])
        // The outcome is logged once the answer is read.
        await server.engine.proxy.drained()
        let logged = try #require(server.admin.webhookCalls().calls.first)
        #expect(logged.callback == WebhookCall.Callback(name: "onEvent", operation: "POST /subscribe"))
        #expect(logged.request == "POST /subscribe")
        #expect(logged.url == receiver.server.url("/events"))

        let listing = try JSONValue(parsing: try server.answer("GET", "/__admin/petmock/webhooks").text)
        let first = try #require(listing["webhooks"]?.arrayValue?.first)
        #expect(first["callback"] == ["name": "onEvent", "operation": "POST /subscribe"])
        #expect(first["stubId"] == nil)
    }

    @Test func aURLInTheQueryIsCalledAndAnUnresolvedOneIsLogged() async throws {
        let receiver = try Receiver()
        let server = try Self.server()
        defer { server.stop() }
        let events = server.events()
        let url = receiver.server.url("/q").percentEncoded()
        let client = try RawClient(port: server.port)
        try client.send("GET /subscribe?url=\(url) HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(try client.readResponse().status == 200)
        #expect(await receiver.awaitCall())
        #expect(receiver.server.requests.first?.head.target == "/q")
        #expect(receiver.server.requests.first?.method == .get)
        // `ping` reads the response body, which has no `missing`: logged, not sent.
        let refused = try await Self.untoldCall(events)
        #expect(refused.outcome == "refused")
        #expect(refused.callback?.name == "ping")
        #expect(refused.error?.contains("the response body is not JSON") == true)
        #expect(receiver.server.requests.count == 1)
    }

    @Test func aBodyWithoutTheURLIsLoggedAndNothingIsSent() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let events = server.events()
        let client = try RawClient(port: server.port)
        try client.send(Self.post(#"{"other": 1}"#))
        #expect(try client.readResponse().status == 201)
        let call = try await Self.untoldCall(events)
        #expect(call.outcome == "refused")
        #expect(call.url == "{$request.body#/callbackUrl}")
        #expect(call.error?.contains("the request body has nothing at '/callbackUrl'") == true)
        #expect(call.description.hasPrefix("callback onEvent POST {$request.body#/callbackUrl} of POST /subscribe"))
    }

    @Test func aURLThatIsNotHTTPIsNotCalled() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let events = server.events()
        let client = try RawClient(port: server.port)
        try client.send(Self.post(#"{"callbackUrl": "file:///etc/passwd"}"#))
        #expect(try client.readResponse().status == 201)
        let call = try await Self.untoldCall(events)
        #expect(call.outcome == "refused")
        #expect(call.error?.contains("expected an absolute http:// or https:// URL") == true)
    }

    @Test func aReceiverThatIsDownIsLoggedAsFailed() async throws {
        let down = try LiveHTTPServer { _ in .response(HTTPResponse(text: "")) }
        let url = down.url("/gone")
        down.stop()
        let server = try Self.server()
        defer { server.stop() }
        let events = server.events()
        let client = try RawClient(port: server.port)
        try client.send(Self.post(#"{"callbackUrl": "\#(url)"}"#))
        let response = try client.readResponse()
        #expect(response.status == 201)
        let call = try await Self.untoldCall(events)
        #expect(call.outcome == "failed")
        #expect(call.url == url)
        #expect(call.callback?.operation == "POST /subscribe")
    }

    @Test func aRefusedRequestCallsNobodyBack() throws {
        let receiver = try Receiver()
        let server = try Self.server()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        // Not JSON, as the operation asks: refused with a problem document, no callback.
        let body = "callbackUrl=\(receiver.server.url("/never"))"
        try client.send(
            "POST /subscribe HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        #expect(try client.readResponse().status == 415)
        #expect(server.admin.webhookCalls().calls.isEmpty)
    }

    @Test func anInvalidExpressionIsAWarningWithItsPointer() throws {
        let text = Self.document.replacing("{$request.body#/callbackUrl}", with: "{$request.bdy}")
        let responder = OpenAPIResponder(
            contract: try OpenAPIReader().read(Array(text.utf8), source: "callbacks.json"))
        let problem = try #require(responder.callbackProblems.first)
        #expect(problem.contains("callback 'onEvent' of POST /subscribe"))
        #expect(problem.contains("#/paths/~1subscribe/post/callbacks/onEvent/{$request.bdy}"))
        #expect(problem.contains("at offset 10"))
        #expect(responder.callbackProblems.count == 1)
    }

    @Test func theReaderKeepsEachCallbackOperation() throws {
        let contract = try OpenAPIReader().read(Array(Self.document.utf8), source: "callbacks.json")
        let get = try #require(contract.operations.first { $0.method == .get })
        #expect(get.callbacks.map(\.name) == ["ping", "query"])
        #expect(get.callbacks.map(\.method) == [.put, .get])
        let post = try #require(contract.operations.first { $0.method == .post })
        #expect(post.callbacks.first?.parameters.map(\.name) == ["X-Event"])
        #expect(post.callbacks.first?.requestBody?.content.first?.mediaType == "application/json")
    }

    @Test func callbacksSurviveWritingAndReading() throws {
        let contract = try OpenAPIReader().read(Array(Self.document.utf8), source: "callbacks.json")
        let written = OpenAPIWriter().document(contract)
        let callbacks = written["paths"]?["/subscribe"]?["get"]?["callbacks"]?.objectValue
        #expect(callbacks?.keys == ["ping", "query"])
        let again = try OpenAPIReader().read(written, source: "callbacks.json")
        #expect(again == contract)
        #expect(OpenAPIWriter().text(again) == OpenAPIWriter().text(contract))
    }
}
