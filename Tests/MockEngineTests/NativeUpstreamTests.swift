import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import Platform
import TestSupport
import Testing

@testable import MockEngine
@testable import StubServerKit

/// Proxy stubs through petmock's own HTTP/1.1 client against upstreams scripted byte by byte:
/// each way an upstream can frame, code or break its answer, and what the caller gets. The
/// same script through libcurl (the other client) gives the same answer, so the two agree.
@Suite struct NativeUpstreamTests {
    /// An upstream answering each path with the bytes (and ending) its script says.
    static func upstream() throws -> ScriptedServer {
        let gzipped = Gzip.compress(Array("a gzip body".utf8)) ?? []
        let deflated = Gzip.compress(Array("a deflate body".utf8), wrapper: .zlib) ?? []
        return try ScriptedServer { path, connection in
            switch path {
            case "/chunked":
                connection.write(
                    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-Kept: yes\r\n\r\n"
                        + "5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nTrailer-Field: t\r\n\r\n")
            case "/gzip":
                connection.write(
                    "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: \(gzipped.count)\r\n\r\n")
                connection.write(gzipped)
            case "/deflate":
                connection.write(
                    "HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\nContent-Length: \(deflated.count)\r\n\r\n")
                connection.write(deflated)
            case "/until-close":
                connection.write("HTTP/1.1 203 Whatever\r\nContent-Type: text/plain\r\n\r\nuntil the close")
                connection.hangUp()
            case "/empty":
                connection.hangUp()
            case "/garbage":
                connection.write("SMTP ready\r\n\r\n")
            case "/truncated":
                connection.write("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n123")
                connection.hangUp()
            case "/once":
                // Answered as kept alive, then the connection is closed: the next request
                // through it meets a closed connection and goes again on a new one.
                connection.write("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nonce")
                connection.hangUp()
            case "/interim":
                connection.write("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfinal")
            default:
                connection.write("HTTP/1.1 200 OK\r\nContent-Length: \(path.utf8.count)\r\n\r\n\(path)")
            }
        }
    }

    static func proxy(to base: String, native: Bool) throws -> StubServer {
        try LoopProxyTests.proxy(to: base, kind: .automatic, native: native)
    }

    struct Answer: Equatable, CustomStringConvertible {
        let status: Int
        let body: String
        let header: String?
        var description: String { "\(status) \(body) [\(header ?? "-")]" }
    }

    static let answered: [(path: String, expected: Answer)] = [
        ("/chunked", Answer(status: 200, body: "hello world", header: "yes")),
        ("/gzip", Answer(status: 200, body: "a gzip body", header: nil)),
        ("/deflate", Answer(status: 200, body: "a deflate body", header: nil)),
        ("/until-close", Answer(status: 203, body: "until the close", header: nil)),
        ("/interim", Answer(status: 200, body: "final", header: nil)),
        ("/garbage", Answer(status: 502, body: "", header: "malformedResponse")),
        ("/truncated", Answer(status: 502, body: "", header: "connectionClosed")),
    ]

    @Test(arguments: [true, false]) func eachFramingAndFailureAnswersAsExpected(native: Bool) throws {
        let upstream = try Self.upstream()
        defer { upstream.stop() }
        let server = try Self.proxy(to: upstream.baseURL, native: native)
        defer { server.stop() }
        for (path, expected) in Self.answered {
            let response = try fetch(server.port, path)
            let header = response.header(expected.status == 502 ? ProxyReply.errorHeader : "X-Kept")
            let answer = Answer(
                status: response.status, body: expected.status == 502 ? "" : response.text, header: header)
            #expect(answer == expected, "\(path) through \(native ? "petmock's client" : "libcurl")")
            if expected.status == 200 {
                #expect(response.header("Transfer-Encoding") == nil && response.header("Content-Encoding") == nil)
            }
        }
        #expect(server.engine.proxy.nativeCount == (native ? Self.answered.count : 0))
    }

    @Test(arguments: [true, false]) func anEmptyReplyBreaksTheCallersConnectionToo(native: Bool) throws {
        let upstream = try Self.upstream()
        defer { upstream.stop() }
        let server = try Self.proxy(to: upstream.baseURL, native: native)
        defer { server.stop() }
        guard case .closed(let bytes) = try exchange(server.port, "/empty") else {
            Issue.record("expected the connection closed with no answer")
            return
        }
        #expect(bytes.isEmpty)
    }

    @Test(arguments: [true, false]) func aResetUpstreamResetsTheCaller(native: Bool) throws {
        let upstream = try LiveHTTPServer { _ in .fault(.connectionReset) }
        defer { upstream.stop() }
        let server = try Self.proxy(to: upstream.baseURL, native: native)
        defer { server.stop() }
        let outcome = try exchange(server.port, "/pets")
        guard case .reset = outcome else {
            Issue.record("expected a reset, got \(outcome)")
            return
        }
    }

    @Test func aKeptAliveConnectionTheUpstreamClosedIsReplacedOnce() throws {
        let upstream = try Self.upstream()
        defer { upstream.stop() }
        let server = try Self.proxy(to: upstream.baseURL, native: true)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send(get("/once"))
        #expect(try client.readResponse().text == "once")
        // The upstream hung up after answering; the client kept the connection as idle.
        try client.send(get("/after"))
        #expect(try client.readResponse().text == "/after", "sent again on a new connection")
        #expect(upstream.acceptedCount == 2)
    }

    @Test func bothClientsSendTheSameRequest() throws {
        let upstream = try LiveHTTPServer { _ in .response(HTTPResponse(text: "seen")) }
        defer { upstream.stop() }
        var seen: [[String]] = []
        for native in [true, false] {
            let server = try Self.proxy(to: upstream.baseURL, native: native)
            defer { server.stop() }
            _ = try fetch(server.port, "POST", "/pets?x=1", headers: [("X-Trace", "t1")], body: "{}")
            let request = try #require(upstream.requests.last)
            #expect(request.head.target == "/pets?x=1")
            #expect(String(decoding: request.body, as: UTF8.self) == "{}")
            let fields = request.headers.fields.map { "\($0.name.lowercased()): \($0.value)" }
            seen.append(fields.filter { !$0.hasPrefix("connection:") }.sorted())
        }
        #expect(seen[0] == seen[1], "petmock's client sends what libcurl sends")
        #expect(seen[0].contains("host: 127.0.0.1:\(upstream.port)"))
        #expect(seen[0].contains("accept-encoding: gzip, deflate"))
        #expect(seen[0].contains("x-trace: t1"))
    }
}
