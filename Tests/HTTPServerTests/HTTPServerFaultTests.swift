import HTTPCore
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

    @Test func chunkedDribbleSpreadsTheBodyOverTheDuration() throws {
        let body = Array(String(repeating: "abcdefghij", count: 5).utf8)
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { _ in
            .prepared(PreparedResponse(body: body), dribble: HTTPDribble(chunkCount: 5, duration: .milliseconds(200)))
        }
        try withServer(handler: handler) { server in
            let client = try RawClient(port: server.port)
            var response: RawResponse?
            let elapsed = try milliseconds {
                try client.send(get("/"))
                response = try client.readResponse()
            }
            #expect(response?.body == body)
            #expect(response?.header("Transfer-Encoding") == "chunked")
            #expect(elapsed >= 190, "dribble finished after \(elapsed) ms")
            // The connection is still usable afterwards.
            try client.send(get("/"))
            #expect(try client.readResponse().body == body)
        }
    }

    @Test func fixedDelayUsesTheLoopTimers() throws {
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { request in
            if request.path == "/slow" {
                return .response(HTTPResponse(text: "slow")).delayed(by: .fixed(.milliseconds(150)))
            } else {
                return .response(HTTPResponse(text: "fast"))
            }
        }
        try withServer(handler: handler) { server in
            let slow = try RawClient(port: server.port)
            let fast = try RawClient(port: server.port)
            let elapsed = try milliseconds {
                try slow.send(get("/slow"))
                // The same single loop still serves others while the delay runs.
                try fast.send(get("/fast"))
                #expect(try fast.readResponse().text == "fast")
                #expect(try slow.readResponse().text == "slow")
            }
            #expect(elapsed >= 145, "delayed answer came after \(elapsed) ms")
        }
    }

    @Test func delayedFaultStillBreaksTheConnection() throws {
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { _ in
            return .fault(.emptyResponse).delayed(by: .uniform(lower: .milliseconds(10), upper: .milliseconds(20)))
        }
        try withServer(handler: handler) { server in
            let client = try RawClient(port: server.port)
            try client.send(get("/"))
            #expect(try client.ending() == .closed([]))
        }
    }
}
