import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import TestSupport
import Testing

@Suite struct HTTPServerFaultTests {
    /// Answers `/fault` with the fault and anything else normally.
    func handler(_ fault: HTTPFault) -> @Sendable (HTTPServerRequest) -> HTTPReply {
        { request in
            if request.path == "/fault" {
                return .fault(fault)
            } else {
                return .response(HTTPResponse(text: "fine"))
            }
        }
    }

    @Test func emptyResponseClosesWithoutBytes() throws {
        try withServer(handler: handler(.emptyResponse)) { server in
            let client = try RawClient(port: server.port)
            try client.send(get("/fault"))
            #expect(try client.ending() == .closed([]))
        }
    }

    @Test func connectionResetIsAnRST() throws {
        try withServer(handler: handler(.connectionReset)) { server in
            let client = try RawClient(port: server.port)
            try client.send(get("/fault"))
            #expect(try client.ending() == .reset([]))
        }
    }

    @Test func randomDataThenClose() throws {
        try withServer(handler: handler(.randomDataThenClose(byteCount: 100))) { server in
            let client = try RawClient(port: server.port)
            try client.send(get("/fault"))
            guard case .closed(let bytes) = try client.ending() else {
                Issue.record("expected a clean close after the random bytes")
                return
            }
            #expect(bytes.count == 100)
        }
    }

    @Test func malformedChunkAfterAValidHead() throws {
        try withServer(handler: handler(.malformedResponseChunk(status: .ok))) { server in
            let client = try RawClient(port: server.port)
            try client.send(get("/fault"))
            #expect {
                try client.readResponse()
            } throws: { error in
                guard case RawClientError.malformed(let what) = error else { return false }
                return what.contains("chunk size")
            }
        }
    }

    @Test func malformedChunkHeadIsValid() throws {
        try withServer(handler: handler(.malformedResponseChunk(status: .ok))) { server in
            let client = try RawClient(port: server.port)
            try client.send(get("/fault"))
            let response = try client.readResponse(head: true)
            #expect(response.status == 200)
            #expect(response.header("Transfer-Encoding") == "chunked")
        }
    }

    @Test func truncatedBodyThenClose() throws {
        let response = HTTPResponse(text: String(repeating: "0123456789", count: 10))
        try withServer(handler: handler(.truncatedBody(response, keepingBytes: 30))) { server in
            let client = try RawClient(port: server.port)
            try client.send(get("/fault"))
            let head = try client.readResponse(head: true)
            #expect(head.header("Content-Length") == "100")
            #expect(try client.ending() == .closed(Array(String(repeating: "0123456789", count: 3).utf8)))
        }
    }

    @Test func faultsLeaveOtherConnectionsAlone() throws {
        try withServer(handler: handler(.connectionReset)) { server in
            let other = try RawClient(port: server.port)
            try other.send(get("/"))
            #expect(try other.readResponse().text == "fine")
            let victim = try RawClient(port: server.port)
            try victim.send(get("/fault"))
            _ = try victim.ending()
            try other.send(get("/"))
            #expect(try other.readResponse().text == "fine")
        }
    }

    @Test func chunkedDribbleSendsEachPieceWhenTheLoopClockReachesIt() throws {
        // Five 10-byte pieces over 50 s of the server's clock: at 0, 10, 20 and 30 s, and the
        // last at the full duration.
        let body = Array(String(repeating: "abcdefghij", count: 5).utf8)
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { _ in
            .prepared(PreparedResponse(body: body), dribble: HTTPDribble(chunkCount: 5, duration: .seconds(50)))
        }
        let piece = { (index: Int) in Array("a\r\n".utf8) + body[(index * 10)..<(index * 10 + 10)] + Array("\r\n".utf8)
        }
        try withClockedServer(handler: handler) { server in
            let client = try RawClient(port: server.port)
            try client.send(get("/"))
            try server.requestArrived()
            #expect(try client.readResponse(head: true).header("Transfer-Encoding") == "chunked")
            #expect(try client.readBytes(count: 15) == piece(0))
            #expect(!client.hasPendingInput, "the second piece went before the clock moved")
            for index in 1...3 {
                server.advance(by: .seconds(10))
                #expect(try client.readBytes(count: 15) == piece(index))
                #expect(!client.hasPendingInput, "piece \(index + 1) went early")
            }
            server.advance(by: .seconds(10))
            #expect(!client.hasPendingInput, "the last piece went before the full duration")
            server.advance(by: .seconds(10))
            #expect(try client.readBytes(count: 20) == piece(4) + Array("0\r\n\r\n".utf8))
            // The connection is still usable afterwards.
            try client.send(get("/"))
            try server.requestArrived()
            server.advance(by: .seconds(50))
            #expect(try client.readResponse().body == body)
        }
    }

    @Test func fixedDelayUsesTheLoopTimers() throws {
        // A 10-minute delay: only the server's clock, moved by hand, brings the answer.
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { request in
            if request.path == "/slow" {
                return .response(HTTPResponse(text: "slow")).delayed(by: .fixed(.seconds(600)))
            } else {
                return .response(HTTPResponse(text: "fast"))
            }
        }
        try withClockedServer(handler: handler) { server in
            let slow = try RawClient(port: server.port)
            let fast = try RawClient(port: server.port)
            try slow.send(get("/slow"))
            try server.requestArrived()
            // The same single loop still serves others while the delay runs.
            try fast.send(get("/fast"))
            #expect(try fast.readResponse().text == "fast")
            server.advance(by: .seconds(599))
            #expect(!slow.hasPendingInput, "the delayed answer came before its time")
            server.advance(by: .seconds(1))
            #expect(try slow.readResponse().text == "slow")
        }
    }

    @Test func delayedFaultStillBreaksTheConnection() throws {
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { _ in
            return .fault(.emptyResponse).delayed(by: .uniform(lower: .seconds(10), upper: .seconds(20)))
        }
        try withClockedServer(handler: handler) { server in
            let client = try RawClient(port: server.port)
            try client.send(get("/"))
            try server.requestArrived()
            server.advance(by: .seconds(9))
            #expect(!client.hasPendingInput, "the fault came before its delay")
            server.advance(by: .seconds(11))
            #expect(try client.ending() == .closed([]))
        }
    }
}
