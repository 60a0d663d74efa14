import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The shared raw test client (TestSupport's `RawClient`) reads framing the way the live tests
/// rely on, fed byte-exact answers by a hostile server: each path names what it sends.
@Suite struct RawClientTests {
    static let answers: [String: String] = [
        "/chunked": "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, Chunked\r\n\r\n"
            + "3;ext=1\r\nabc\r\n 2 \r\nde\r\n0\r\nTrailer: t\r\n\r\n",
        "/length": "HTTP/1.1 201 Created\r\nContent-Length:  5 \r\nX-A: one\r\nx-a: two\r\n\r\nhello",
        "/head": "HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\n",
        "/continue": "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n",
        "/bare-lf": "HTTP/1.0 200 OK\nContent-Length: 2\n\nok",
        "/status": "HTTP/1.1 two hundred\r\n\r\n",
        "/header": "HTTP/1.1 200 OK\r\nno colon\r\n\r\n",
        "/terminator": "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabX\r\n0\r\n\r\n",
        "/negative": "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
    ]

    /// Runs `body` against a server answering `answers`; `/to-close` and `/truncated` answer,
    /// then end the stream; `/silent` never answers. Clients made in `body` are gone before
    /// the server stops.
    static func withServer(_ body: (Int) throws -> Void) throws {
        let server = try ScriptedServer { path, connection in
            switch path {
            case "/to-close", "/truncated":
                let length = path == "/to-close" ? "" : "Content-Length: 20\r\n"
                let head = "HTTP/1.1 200 OK\r\n\(length)\r\n"
                connection.write(head + "to the end")
                connection.endWriting()
            case "/silent":
                break
            default:
                connection.write(answers[path] ?? "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
            }
        }
        defer { server.stop() }
        try body(server.port)
    }

    @Test func framingsReadOneResponseAtATime() throws {
        try Self.withServer { port in
            let client = try RawClient(port: port)
            try client.send(
                ["/chunked", "/length", "/head", "/continue", "/bare-lf", "/to-close"].map { get($0) }.joined())
            let chunked = try client.readResponse()
            #expect(chunked.text == "abcde" && chunked.chunkSizes == [3, 2])
            let length = try client.readResponse()
            #expect(length.status == 201 && length.text == "hello" && length.chunkSizes == nil)
            #expect(length.header("x-a") == "one" && length.headers.values(name: "X-A") == ["one", "two"])
            #expect(length.headers["content-length"] == "5")
            let head = try client.readResponse(head: true)
            #expect(head.status == 200 && head.body.isEmpty && head.header("Content-Length") == "7")
            #expect(try client.readResponse().status == 100)
            #expect(try client.readResponse().status == 204)
            #expect(try client.readResponse().text == "ok")
            #expect(try client.readResponse().text == "to the end")
            #expect(try client.ending() == .closed([]))
        }
    }

    @Test(arguments: ["/status", "/header", "/terminator", "/negative"])
    func brokenFramingIsMalformed(path: String) throws {
        try Self.withServer { port in
            guard case .malformed(let bytes) = try exchange(port, path) else {
                Issue.record("expected a malformed outcome")
                return
            }
            #expect(bytes == Array((Self.answers[path] ?? "").utf8))
            let client = try RawClient(port: port)
            try client.send(get(path))
            #expect {
                try client.readResponse()
            } throws: { error in
                guard case RawClientError.malformed = error else { return false }
                return true
            }
        }
    }

    @Test func aCloseMidResponseIsAnOutcomeOrAnError() throws {
        try Self.withServer { port in
            let sent = Array("HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\r\nto the end".utf8)
            guard case .closed(let bytes) = try exchange(port, "/truncated") else {
                Issue.record("expected a close")
                return
            }
            #expect(bytes == sent)
            let client = try RawClient(port: port)
            try client.send(get("/truncated"))
            #expect(throws: RawClientError.closed) { try client.readResponse() }
            #expect(try client.readToEnd() == .closed(sent))
        }
    }

    @Test func aSilentServerTimesOutAndARefusedPortFailsToConnect() throws {
        try Self.withServer { port in
            let client = try RawClient(port: port, timeout: .milliseconds(100))
            try client.send(get("/silent"))
            #expect(try client.readToEnd() == .timedOut([]))
            #expect(try !client.readToEnd().ended)
            #expect(throws: RawClientError.timedOut) { try client.ending() }
            // Once a client stops sending, this server ends the connection: a clean close.
            let quitting = try RawClient(port: port)
            try quitting.send(get("/silent"))
            quitting.shutdownWrite()
            #expect(try quitting.ending() == .closed([]))
        }
        let closed = try ClosedPort()
        #expect(throws: RawClientError.connectFailed(ECONNREFUSED)) { try RawClient(port: closed.port) }
    }
}
