import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import JSONKit
import TestSupport
import Testing

@testable import MockEngine
@testable import StubFormat
@testable import StubServerKit

/// A stub folder mixing canned answers with a pass-through to the real API (WireMock's
/// `proxyBaseUrl`, `additionalProxyRequestHeaders`, `removeProxyRequestHeaders`,
/// `proxyUrlPrefixToRemove`, the answer's `headers`; cases after WireMock's `ProxyAcceptanceTest`).
@Suite struct ProxyStubTests {
    /// An upstream that answers with what it received: the target and the header names.
    static func upstream() throws -> LiveHTTPServer {
        let handler = HTTPClosureHandler { request in
            let names = request.headers.fields.map { $0.name.lowercased() }.sorted()
            let added = request.headers["X-Added"] ?? ""
            let body: JSONValue = [
                "target": .string(String(request.head.target)), "headers": .array(names.map(JSONValue.string)),
                "added": .string(added),
            ]
            return .response(
                HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"], body: body.serializedBytes()))
        }
        return try LiveHTTPServer(handler: handler)
    }

    @Test func cannedAnswersFirstTheRestPassedOnAsTheStubSays() throws {
        let upstream = try Self.upstream()
        defer { upstream.stop() }
        let folder = try TemporaryStubs()
        folder.write(
            "mappings/mixed.json",
            """
            {"mappings": [
              {"priority": 1, "request": {"method": "GET", "url": "/api/pets"}, "response": {"status": 200, "body": "canned"}},
              {"priority": 10, "request": {"method": "ANY", "urlPathPattern": "/api/.*"},
               "response": {"proxyBaseUrl": "http://127.0.0.1:\(upstream.port)", "proxyUrlPrefixToRemove": "/api",
                            "additionalProxyRequestHeaders": {"X-Added": "yes"}, "removeProxyRequestHeaders": ["X-Secret"],
                            "headers": {"X-From-Stub": "yes", "Content-Type": "application/vnd.pets+json"}}}]}
            """)
        let server = try startServer(stubs: folder.root)
        defer { server.stop() }
        #expect(server.loadProblems.isEmpty, "\(server.loadProblems)")
        #expect(try fetch(server.port, "/api/pets").text == "canned")
        let passed = try fetch(server.port, "/api/vets/1?x=2", headers: [("X-Secret", "s"), ("X-Kept", "k")])
        #expect(passed.status == 200)
        #expect(passed.json["target"] == "/vets/1?x=2", "the prefix is removed, the query kept")
        #expect(passed.json["added"] == "yes")
        let names = passed.json["headers"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(names.contains("x-kept") && !names.contains("x-secret"))
        // The stub's own headers are set on the upstream's answer, replacing a field of the same name.
        #expect(passed.headers["X-From-Stub"] == "yes")
        #expect(passed.headers.values(name: "Content-Type") == ["application/vnd.pets+json"])
        // The journal names the proxy stub, and a drift asked of a proxied answer is refused.
        #expect(server.admin.requests().first?.matchedMapping?.response.proxy != nil)
        let drift = try fetch(server.port, "/api/vets/1", headers: [("X-Petmock-Variant", "missing:target")])
        #expect(drift.status == 400 && drift.text.contains("passes the request on"))
    }

    @Test func proxyFieldsAreCheckedAndRoundTrip() throws {
        var decoder = MappingDecoder(file: "p.json")
        let response = try #require(
            decoder.decodeResponse(
                try JSONValue(
                    parsing:
                        #"{"proxyBaseUrl": "http://api.test", "additionalProxyRequestHeaders": {"A": "1"}, "removeProxyRequestHeaders": ["B"], "proxyUrlPrefixToRemove": "/x", "headers": {"C": "3"}}"#
                ), at: .root))
        #expect(decoder.problems.isEmpty)
        #expect(response.headers["C"] == "3")
        var again = MappingDecoder(file: "again.json")
        #expect(again.decodeResponse(response.json, at: .root) == response)
        var bad = MappingDecoder(file: "bad.json")
        _ = bad.decodeResponse(
            try JSONValue(parsing: #"{"proxyUrlPrefixToRemove": "/x", "proxyBaseUrl": "ftp://x"}"#), at: .root)
        #expect(bad.problems.map(\.message) == ["expected an http:// or https:// base URL, found 'ftp://x'"])
        var delayed = MappingDecoder(file: "d.json")
        _ = delayed.decodeResponse(
            try JSONValue(parsing: #"{"proxyBaseUrl": "http://api.test", "fixedDelayMilliseconds": 100}"#), at: .root)
        #expect(delayed.problems.map(\.path) == ["$.fixedDelayMilliseconds"], "never accepted and then ignored")
        var templated = MappingDecoder(file: "t.json")
        _ = templated.decodeResponse(
            try JSONValue(parsing: #"{"proxyBaseUrl": "http://api.test", "transformers": ["response-template"]}"#),
            at: .root)
        #expect(templated.problems.map(\.path) == ["$.transformers"], "a templated proxy is refused, never ignored")
    }
}
