import Dispatch
import Foundation
import HTTPCore
import HTTPHandlerKit
import MockEngine
import StubFormat
import TestSupport
import Testing
import URLSessionStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A stub's webhook in a `StubSession`: sent through the session's upstream `URLSession`, after
/// the in-process answer, and its outcome kept for `admin.webhookCalls()`.
@Suite struct WebhookSessionTests {
    /// Whether the receiver signalled, waited for without holding a thread: a StubSession sends
    /// its webhooks from tasks, which a blocked thread could keep from running. The bound is a
    /// hang guard (a sanitizer run with every suite at once took more than 20 s), not a speed.
    static func arrived(_ arrival: Arrivals) async -> Bool {
        await arrival.next(timeout: 600)
    }

    @Test func aStubSessionSendsTheWebhookThroughItsUpstreamSession() async throws {
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
        let stubs = try StubSession(mappings: [mapping])
        var request = URLRequest(url: try #require(URL(string: "https://api.example/api/orders")))
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"id": 42}"#.utf8)
        let answer = await fetch(stubs.session, request)
        #expect(answer.status == 202 && answer.text == "queued")
        #expect(await Self.arrived(arrival))
        let call = try #require(receiver.requests.first)
        #expect(call.method == .post && call.head.target == "/callback")
        #expect(String(decoding: call.body, as: UTF8.self) == "order 42")
    }

    @Test func aDocumentSessionSendsTheOperationsCallback() async throws {
        let arrival = Arrivals()
        let receiver = try LiveHTTPServer { _ in
            defer { arrival.signal() }
            return .response(HTTPResponse(status: .noContent))
        }
        defer { receiver.stop() }
        let folder = try TemporaryDirectory(
            files: [
                "api.json": #"""
                {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/watch": {"post": {
                  "requestBody": {"content": {"application/json": {"schema": {"type": "object",
                    "properties": {"hook": {"type": "string"}}}}}},
                  "responses": {"202": {"description": "watching"}},
                  "callbacks": {"onChange": {"{$request.body#/hook}": {"post": {
                    "requestBody": {"content": {"application/json": {"schema": {"type": "object",
                      "required": ["changed"], "properties": {"changed": {"const": true}}}}}},
                    "responses": {"200": {"description": "ok"}}}}}}}}}}
                """#
            ])
        let stubs = try StubSession(openAPIDocument: folder.file("api.json"))
        var request = URLRequest(url: try #require(URL(string: "https://api.example/watch")))
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"hook": "\#(receiver.url("/changed"))"}"#.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let answer = await fetch(stubs.session, request)
        #expect(answer.status == 202)
        #expect(await Self.arrived(arrival))
        let call = try #require(receiver.requests.first)
        #expect(call.method == .post && call.head.target == "/changed")
        #expect(String(decoding: call.body, as: UTF8.self) == #"{"changed":true}"#)
    }
}
