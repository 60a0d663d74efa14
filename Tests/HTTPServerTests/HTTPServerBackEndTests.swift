import Dispatch
import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import TestSupport
import Testing

/// The server's key behaviours over every poller back end of this system: epoll
/// (edge-triggered) and `poll(2)` (level-triggered, told what each connection waits for).
@Suite struct HTTPServerBackEndTests {
    static let kinds = HTTPPollerKind.backEnds

    private func configuration(_ kind: HTTPPollerKind, timeouts: Bool = false) -> HTTPServerConfiguration {
        var configuration =
            timeouts
            ? HTTPServerConfiguration(
                eventLoopCount: 1, headerTimeout: .seconds(600), idleTimeout: .seconds(6000),
                bodyTimeout: .seconds(600))
            : HTTPServerConfiguration(eventLoopCount: 1)
        configuration.poller = kind
        return configuration
    }

    @Test(arguments: kinds) func keepAlive(kind: HTTPPollerKind) throws {
        try withServer(configuration(kind), handler: echoPath) { server in
            let client = try RawClient(port: server.port)
            for index in 0..<20 {
                try client.send(get("/\(index)"))
                #expect(try client.readResponse().text == "/\(index)")
            }
        }
    }

    @Test(arguments: kinds) func pipelinedAnswersKeepOrderBehindALateOne(kind: HTTPPollerKind) throws {
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { request in
            let response = HTTPResponse(text: String(request.path))
            guard request.path == "/slow" else { return .response(response) }
            let reply = DeferredReply()
            DispatchQueue.global().async { reply.complete(.response(response)) }
            return .deferred(reply)
        }
        try withServer(configuration(kind), handler: handler) { server in
            let client = try RawClient(port: server.port)
            try client.send(get("/slow") + get("/two") + get("/three"))
            let texts = try (0..<3).map { _ in try client.readResponse().text }
            #expect(texts == ["/slow", "/two", "/three"])
        }
    }

    @Test(arguments: kinds) func backPressureOnLargeResponsesAndUploads(kind: HTTPPollerKind) throws {
        let big = PreparedResponse(body: (0..<(4 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { request in
            request.path == "/big"
                ? .prepared(big) : .response(HTTPResponse(text: "\(request.path) \(request.body.count)"))
        }
        try withServer(configuration(kind), handler: handler) { server in
            let client = try RawClient(port: server.port)
            try client.send(get("/big") + get("/big"))
            for _ in 0..<2 { #expect(try client.readResponse().body == big.response.body) }
            let upload = [UInt8](repeating: 65, count: 1 << 20)
            try client.send(
                Array("POST /up HTTP/1.1\r\nHost: h\r\nContent-Length: \(upload.count)\r\n\r\n".utf8) + upload)
            #expect(try client.readResponse().text == "/up \(upload.count)")
            try client.send((0..<200).map { get("/\($0)") }.joined())
            for index in 0..<200 { #expect(try client.readResponse().text == "/\(index) 0") }
        }
    }

    @Test(arguments: kinds) func aHalfClosedClientStillGetsItsLateAnswer(kind: HTTPPollerKind) throws {
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { _ in
            .response(HTTPResponse(text: "late")).delayed(by: .fixed(.seconds(600)))
        }
        try withClockedServer(configuration(kind), handler: handler) { server in
            let client = try RawClient(port: server.port)
            try client.send(get("/"))
            try server.requestArrived()
            client.shutdownWrite()
            server.loop.settle()
            #expect(!client.hasPendingInput, "answered or closed before the delay")
            server.advance(by: .seconds(600))
            #expect(try client.readResponse().text == "late")
            #expect(try client.ending() == .closed([]))
        }
    }

    /// The deadlines on each back end, on the server's clock moved by hand: a head that stops
    /// coming gets a 408, an idle keep-alive connection is closed quietly.
    @Test(arguments: kinds) func timeouts(kind: HTTPPollerKind) throws {
        try withClockedServer(configuration(kind, timeouts: true), handler: echoPath) { server in
            let slow = try RawClient(port: server.port)
            try slow.send("GET / HTTP/1.1\r\nHost: h\r\n")
            #expect(server.advance(by: .seconds(601), untilAnswered: slow), "no 408 after the header deadline")
            #expect(try slow.readResponse().status == 408)
            #expect(try slow.ending() == .closed([]))
            let idle = try RawClient(port: server.port)
            try idle.send(get("/"))
            try server.requestArrived()
            #expect(try idle.readResponse().status == 200)
            server.advance(by: .seconds(5999))
            #expect(!idle.hasPendingInput, "closed before the idle deadline")
            server.advance(by: .seconds(1))
            #expect(try idle.ending() == .closed([]))
        }
    }
}
