import Dispatch
import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import Platform
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct HTTPServerLiveTests {
    @Test func startReturnsWhenListeningOnAPickedPort() throws {
        try withServer(handler: echoPath) { server in
            #expect(server.port > 0)
            let client = try RawClient(port: server.port)
            try client.send(get("/ready"))
            #expect(try client.readResponse().text == "/ready")
        }
    }

    @Test func aTakenPortIsAnErrorNotShared() throws {
        try withServer(HTTPServerConfiguration(eventLoopCount: 2), handler: echoPath) { server in
            let second = HTTPServer(configuration: HTTPServerConfiguration(port: server.port), handler: echoPath)
            #expect(throws: HTTPServerError.self) { try second.start() }
        }
    }

    @Test func keepAliveServesManyRequestsOnOneConnection() throws {
        try withServer(handler: echoPath) { server in
            let client = try RawClient(port: server.port)
            for index in 0..<20 {
                try client.send(get("/\(index)"))
                let response = try client.readResponse()
                #expect(response.status == 200)
                #expect(response.text == "/\(index)")
                #expect(response.header("Connection") == nil)
                #expect(response.header("Date")?.hasSuffix(" GMT") == true)
            }
        }
    }

    @Test func http10ClosesUnlessAskedToKeepAlive() throws {
        try withServer(handler: echoPath) { server in
            let keeping = try RawClient(port: server.port)
            try keeping.send("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(try keeping.readResponse().header("Connection") == "keep-alive")
            try keeping.send("GET /b HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(try keeping.readResponse().text == "/b")

            let closing = try RawClient(port: server.port)
            try closing.send("GET /c HTTP/1.0\r\n\r\n")
            let response = try closing.readResponse()
            #expect(response.header("Connection") == "close")
            #expect(try closing.ending() == .closed([]))
        }
    }

    @Test func connectionCloseIsHonoured() throws {
        try withServer(handler: echoPath) { server in
            let client = try RawClient(port: server.port)
            try client.send(get("/x", headers: "Connection: close\r\n"))
            #expect(try client.readResponse().header("Connection") == "close")
            #expect(try client.ending() == .closed([]))
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrderEvenWhenTheFirstIsLate() throws {
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { request in
            let response = HTTPResponse(text: String(request.path))
            if request.path == "/slow" {
                // Answered later from another thread, after the fast ones were parsed.
                let reply = DeferredReply()
                DispatchQueue.global().async { reply.complete(.response(response)) }
                return .deferred(reply)
            }
            return .response(response)
        }
        try withServer(handler: handler) { server in
            let client = try RawClient(port: server.port)
            try client.send(
                get("/slow") + get("/two") + "POST /three HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc"
                    + get("/four"))
            let texts = try (0..<4).map { _ in try client.readResponse().text }
            #expect(texts == ["/slow", "/two", "/three", "/four"])
        }
    }

    @Test func chunkedUploadIsDechunked() throws {
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { request in
            return .response(HTTPResponse(body: request.body))
        }
        try withServer(handler: handler) { server in
            let client = try RawClient(port: server.port)
            try client.send("POST /upload HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nhello \r\n")
            try client.send("5;ext=1\r\nworld\r\n0\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.text == "hello world")
            #expect(response.header("Content-Length") == "11")
        }
    }

    @Test func expectContinueGetsA100BeforeTheBody() throws {
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { request in
            return .response(HTTPResponse(text: "got \(request.body.count)"))
        }
        try withServer(handler: handler) { server in
            let client = try RawClient(port: server.port)
            try client.send("PUT /big HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
            #expect(try client.readResponse().status == 100)
            try client.send("data")
            let final = try client.readResponse()
            #expect(final.status == 200)
            #expect(final.text == "got 4")
        }
    }

    @Test func headGetsLengthButNoBody() throws {
        let pets = PreparedResponse(body: Array("[1,2,3]".utf8))
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { request in
            if request.path == "/dynamic" {
                return .response(HTTPResponse(text: "dynamic"))
            } else {
                return .prepared(pets)
            }
        }
        try withServer(handler: handler) { server in
            let client = try RawClient(port: server.port)
            try client.send("HEAD /pets HTTP/1.1\r\nHost: h\r\n\r\n")
            let head = try client.readResponse(head: true)
            #expect(head.header("Content-Length") == "7")
            try client.send("HEAD /dynamic HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(try client.readResponse(head: true).header("Content-Length") == "7")
            // Had a body been sent, this response would start with its bytes.
            try client.send(get("/pets"))
            #expect(try client.readResponse().text == "[1,2,3]")
        }
    }

    @Test func answersFromAnotherThreadArrive() throws {
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { request in
            // A Dispatch thread, not a Task: these blocking tests occupy the cooperative pool.
            let reply = DeferredReply()
            DispatchQueue.global().async { reply.complete(.response(HTTPResponse(status: .created, text: "later"))) }
            return .deferred(reply)
        }
        try withServer(HTTPServerConfiguration(eventLoopCount: 2), handler: handler) { server in
            for _ in 0..<3 {
                let client = try RawClient(port: server.port)
                for _ in 0..<5 {
                    try client.send(get("/"))
                    let response = try client.readResponse()
                    #expect(response.status == 201)
                    #expect(response.text == "later")
                }
            }
        }
    }

    @Test func requestCarriesHeadBodyAndRemoteAddress() throws {
        let seen = Locked<HTTPServerRequest?>(nil)
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { request in
            seen.withLock { $0 = request }
            return .response(HTTPResponse())
        }
        try withServer(handler: handler) { server in
            let client = try RawClient(port: server.port)
            try client.send("POST /p?q=1 HTTP/1.1\r\nHost: h\r\nX-Test: yes\r\nContent-Length: 2\r\n\r\nok")
            _ = try client.readResponse()
        }
        let request = try #require(seen.withLock { $0 })
        #expect(request.method == .post)
        #expect(request.path == "/p")
        #expect(request.query == "q=1")
        #expect(request.headers["x-test"] == "yes")
        #expect(request.body == Array("ok".utf8))
        #expect(request.remoteAddress.host == "127.0.0.1")
        #expect(request.remoteAddress.port > 0)
    }

    @Test func keepAliveRequestsInTwoWritesAreAnsweredInTurn() throws {
        // 50 sequential keep-alive exchanges, each request in two writes (head, then body): the
        // pattern that stalls on Nagle and delayed ACKs. That the server's sockets have
        // TCP_NODELAY is checked as a value (PlatformTests: an accepted, prepared connection).
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { request in
            return .response(HTTPResponse(body: request.body + Array(repeating: UInt8(ascii: "x"), count: 3000)))
        }
        try withServer(handler: handler) { server in
            let client = try RawClient(port: server.port)
            for _ in 0..<50 {
                try client.send("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\n")
                try client.send("hello")
                #expect(try client.readResponse().body.count == 3005)
            }
        }
    }

    @Test func largeResponsesSurviveBackpressure() throws {
        let big = PreparedResponse(body: (0..<(4 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try withServer(handler: { _ in .prepared(big) }) { server in
            let client = try RawClient(port: server.port)
            try client.send(get("/a") + get("/b"))
            for _ in 0..<2 {
                let response = try client.readResponse()
                #expect(response.body == big.response.body)
            }
        }
    }

    @Test func largeUploadsAndLongPipelinesArrive() throws {
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { request in
            let sum = request.body.reduce(0) { $0 &+ Int($1) }
            return .response(HTTPResponse(text: "\(request.path) \(request.body.count) \(sum)"))
        }
        try withServer(handler: handler) { server in
            let client = try RawClient(port: server.port)
            let upload = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0) }
            let expectedSum = upload.reduce(0) { $0 &+ Int($1) }
            try client.send(
                Array("POST /big HTTP/1.1\r\nHost: h\r\nContent-Length: \(upload.count)\r\n\r\n".utf8) + upload)
            #expect(try client.readResponse().text == "/big \(upload.count) \(expectedSum)")

            let burst = (0..<200).map { get("/\($0)") }.joined()
            try client.send(burst)
            for index in 0..<200 {
                #expect(try client.readResponse().text == "/\(index) 0 0")
            }
        }
    }
}
