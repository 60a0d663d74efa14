import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import JSONKit
import Platform
import TestSupport
import Testing

@testable import MockEngine
@testable import StubFormat
@testable import StubServerKit

/// A templated stub's `proxyBaseUrl` is rendered per request (as WireMock renders it when the
/// stub is templated), and only an http(s) URL is ever proxied to.
@Suite struct TemplatedProxyTests {
    /// An upstream that counts what it received and answers with the target.
    static func upstream(_ count: Locked<Int>) throws -> LiveHTTPServer {
        let handler = HTTPClosureHandler { request in
            count.withLock { $0 += 1 }
            return .response(HTTPResponse(status: .ok, text: "upstream saw " + String(request.head.target)))
        }
        return try LiveHTTPServer(handler: handler)
    }

    static func mapping(_ response: String) -> String {
        #"{"request": {"urlPathPattern": "/api/.*"}, "response": "# + response + "}"
    }

    @Test func theBaseURLIsRenderedFromTheRequest() throws {
        let count = Locked(0)
        let upstream = try Self.upstream(count)
        defer { upstream.stop() }
        let folder = try TemporaryStubs()
        folder.write(
            "mappings/proxy.json",
            Self.mapping(
                #"{"proxyBaseUrl": "http://127.0.0.1:{{request.headers.X-Port}}", "proxyUrlPrefixToRemove": "/api", "#
                    + #""transformers": ["response-template"]}"#))
        folder.write(
            "mappings/parameters.json",
            #"{"priority": 1, "request": {"urlPath": "/api/by-parameter"}, "response": {"#
                + #""proxyBaseUrl": "{{parameters.upstream}}", "transformers": ["response-template"], "#
                + #""transformerParameters": {"upstream": "http://127.0.0.1:\#(upstream.port)"}}}"#)
        let server = try startServer(stubs: folder.root)
        defer { server.stop() }
        #expect(server.loadProblems.isEmpty, "\(server.loadProblems)")
        let answer = try fetch(server.port, "/api/pets?x=1", headers: [("X-Port", String(upstream.port))])
        #expect(answer.status == 200 && answer.text == "upstream saw /pets?x=1", "\(answer.status) \(answer.text)")
        let byParameter = try fetch(server.port, "/api/by-parameter")
        #expect(byParameter.text == "upstream saw /api/by-parameter")
        #expect(count.withLock { $0 } == 2)
    }

    @Test func aBaseURLThatIsNotHTTPIsA500AndNothingIsSent() throws {
        let count = Locked(0)
        let upstream = try Self.upstream(count)
        defer { upstream.stop() }
        let folder = try TemporaryStubs()
        folder.write(
            "mappings/proxy.json",
            Self.mapping(#"{"proxyBaseUrl": "{{request.headers.X-Target}}", "transformers": ["response-template"]}"#))
        let server = try startServer(stubs: folder.root)
        defer { server.stop() }
        #expect(server.loadProblems.isEmpty, "\(server.loadProblems)")
        for target in ["file:///etc/passwd", "gopher://127.0.0.1:\(upstream.port)", "http://", ""] {
            let answer = try fetch(server.port, "/api/x", headers: [("X-Target", target)])
            #expect(answer.status == 500, "\(target): \(answer.status)")
            #expect(answer.text.contains("the templated proxyBaseUrl rendered"), "\(target): \(answer.text)")
            #expect(answer.text.contains("expected an http:// or https:// URL"), "\(target): \(answer.text)")
        }
        #expect(count.withLock { $0 } == 0, "nothing reached the upstream")
        #expect(server.admin.requests().first?.responseStatus == 500)
    }

    @Test func aMustacheOnAStubThatIsNotTemplatedIsALoadError() throws {
        let folder = try TemporaryStubs()
        folder.write("mappings/proxy.json", Self.mapping(#"{"proxyBaseUrl": "http://{{request.headers.X-Host}}"}"#))
        let server = try startServer(stubs: folder.root)
        defer { server.stop() }
        let problem = try #require(server.loadProblems.first)
        #expect(problem.isError && problem.path.hasSuffix("proxyBaseUrl"), "\(problem)")
        #expect("\(problem)".contains("not templated"), "\(problem)")
        // With global templating the same stub renders it.
        let global = try startServer(stubs: folder.root) { $0.globalResponseTemplating = true }
        defer { global.stop() }
        #expect(global.loadProblems.isEmpty, "\(global.loadProblems)")
    }

    @Test(arguments: [
        ("http://127.0.0.1:8080", true), ("HTTPS://Example.com/base", true), ("http://[::1]:80/x", true),
        ("http://user:pw@host", true), ("file:///etc/passwd", false), ("ftp://host", false), ("http://", false),
        ("http://:80", false), ("http://user@", false), ("http://a b", false), ("http://a\r\nX: y", false),
        ("//host", false), ("", false), ("[ERROR: x]", false),
    ])
    func renderedBaseURLsAreCheckedByScheme(_ base: String, _ accepted: Bool) {
        #expect((ProxyBaseURLTemplate.problem(base) == nil) == accepted, "\(base)")
    }
}
