import Dispatch
import HTTPCore
import HTTPServerKit
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Deadlines and timers on the wire. The deadline rules (header, body, idle, stalled, linger)
/// are tested as values in `ConnectionStateMachineTests`; these check that the loop applies
/// them, and reads the time from the configured `ServerClock`.
@Suite struct HTTPServerTimeoutTests {
    static let configuration = HTTPServerConfiguration(
        eventLoopCount: 1, headerTimeout: .milliseconds(150), idleTimeout: .milliseconds(300),
        bodyTimeout: .milliseconds(300))

    @Test func slowHeadGets408ThenCloseWhenTheServerClockSaysSo() throws {
        // Real timeouts far longer than any test: only the hand-moved clock can bring the 408.
        let manual = ManualClock()
        var configuration = HTTPServerConfiguration(
            eventLoopCount: 1, headerTimeout: .seconds(600), idleTimeout: .seconds(600))
        configuration.clock = manual.clock
        try withServer(configuration, handler: echoPath) { server in
            let client = try RawClient(port: server.port)
            try client.send("GET / HTTP/1.1\r\nHost: h\r\n")
            let loop = try #require(server.eventLoops.first)
            let answered = advanceUntilAnswered(client.descriptor, clock: manual, step: .seconds(601), loop: loop)
            #expect(answered, "no 408 after the clock passed the header deadline")
            let response = try client.readResponse()
            #expect(response.status == 408)
            #expect(try client.ending() == .closed([]))
        }
    }

    @Test func delayedReplyWaitsForTheServerClock() throws {
        // A 10-minute delay: only the hand-moved clock can bring the answer within the test.
        let manual = ManualClock()
        var configuration = HTTPServerConfiguration(eventLoopCount: 1)
        configuration.clock = manual.clock
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { _ in
            .response(HTTPResponse(text: "later")).delayed(by: .fixed(.seconds(600)))
        }
        try withServer(configuration, handler: handler) { server in
            let client = try RawClient(port: server.port)
            try client.send(get("/"))
            let loop = try #require(server.eventLoops.first)
            let answered = advanceUntilAnswered(client.descriptor, clock: manual, step: .seconds(601), loop: loop)
            #expect(answered, "no answer after the clock passed the delay")
            #expect(try client.readResponse().text == "later")
        }
    }

    @Test func idleKeepAliveConnectionIsClosedQuietly() throws {
        try withServer(Self.configuration, handler: echoPath) { server in
            let client = try RawClient(port: server.port)
            try client.send(get("/"))
            #expect(try client.readResponse().status == 200)
            #expect(try client.ending() == .closed([]))
        }
    }
}

@Suite struct HTTPServerShutdownTests {
    @Test func shutdownFinishesInFlightResponsesAndClosesEveryConnection() throws {
        let arrived = DispatchSemaphore(value: 0)
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { _ in
            arrived.signal()
            return .response(HTTPResponse(text: "finished")).delayed(by: .fixed(.milliseconds(100)))
        }
        let server = HTTPServer(configuration: HTTPServerConfiguration(eventLoopCount: 2), handler: handler)
        try server.start()
        let port = server.port
        let idle = try RawClient(port: port)
        let busy = try RawClient(port: port)
        try busy.send(get("/"))
        arrived.wait()
        server.shutdown()
        let response = try busy.readResponse()
        #expect(response.text == "finished")
        #expect(response.header("Connection") == "close")
        #expect(try busy.ending() == .closed([]))
        #expect(try idle.ending() == .closed([]))
        server.waitUntilStopped()
        // No connect to the old port here: once freed, another test's server may bind it (a
        // stray connection from such a check once failed an unrelated test).
        #expect(server.eventLoops.isEmpty)
    }

    @Test func gracePeriodBoundsTheWait() throws {
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { _ in .deferred(DeferredReply()) }  // never answers
        let configuration = HTTPServerConfiguration(eventLoopCount: 1, shutdownGracePeriod: .milliseconds(100))
        let server = HTTPServer(configuration: configuration, handler: handler)
        try server.start()
        let client = try RawClient(port: server.port)
        try client.send(get("/"))
        // The handler has the request once the next one on another connection is served... use a
        // second connection only to be sure the first request was read before shutting down.
        let probe = try RawClient(port: server.port)
        try probe.send("GARBAGE\r\n\r\n")
        _ = try probe.readResponse()
        server.shutdown()
        #expect(try client.ending() == .closed([]))
        server.waitUntilStopped()
    }

    @Test func stopWithoutStartReturns() {
        let server = HTTPServer(handler: echoPath)
        server.stop()
        #expect(server.port == 0)
    }

    @Test func stoppedResumesAsyncWaiters() async throws {
        let server = HTTPServer(configuration: HTTPServerConfiguration(eventLoopCount: 1), handler: echoPath)
        try server.start()
        server.shutdown()
        await server.stopped()
        #expect(server.eventLoops.isEmpty)
    }

    @Test func aSignalStartsAGracefulShutdown() throws {
        let server = HTTPServer(configuration: HTTPServerConfiguration(eventLoopCount: 1), handler: echoPath)
        server.shutdownOnSignals([SIGUSR2])
        try server.start()
        let client = try RawClient(port: server.port)
        try client.send(get("/"))
        #expect(try client.readResponse().status == 200)
        // Process-directed: test threads (dispatch workers) block signals, so raise() would wait forever.
        kill(getpid(), SIGUSR2)
        server.waitUntilStopped()
        #expect(try client.ending() == .closed([]))
    }

    @Test func handlersCanShutDownTheServer() throws {
        let box = SharedValue<HTTPServer?>(nil)
        let server = HTTPServer(configuration: HTTPServerConfiguration(eventLoopCount: 1)) { _ in
            box.get()?.shutdown()  // takes effect on the loop's next turn: the reply still goes out
            return .response(HTTPResponse(text: "bye"))
        }
        box.set(server)
        try server.start()
        let client = try RawClient(port: server.port)
        try client.send(get("/__admin/shutdown"))
        #expect(try client.readResponse().text == "bye")
        #expect(try client.ending() == .closed([]))
        server.waitUntilStopped()
        box.set(nil)
    }
}

@Suite struct HTTPServerLateAnswerTests {
    @Test func answersAfterStopAreDropped() throws {
        let kept = SharedValue<DeferredReply?>(nil)
        let arrived = DispatchSemaphore(value: 0)
        let configuration = HTTPServerConfiguration(eventLoopCount: 1, shutdownGracePeriod: .milliseconds(50))
        let server = HTTPServer(configuration: configuration) { _ in
            let reply = DeferredReply()
            kept.set(reply)
            arrived.signal()
            return .deferred(reply)
        }
        try server.start()
        let client = try RawClient(port: server.port)
        try client.send(get("/"))
        arrived.wait()
        server.stop()
        let reply = try #require(kept.get())
        reply.complete(.response(HTTPResponse(text: "too late")))
        #expect(try client.ending() == .closed([]))
        kept.set(nil)  // the handler's closure holds `kept`: break the cycle through the loop
    }
}

@Suite struct HTTPEventLoopTimerTests {
    @Test func scheduledWorkRunsOnTheLoopAndCancelledWorkDoesNot() throws {
        let ran = SharedValue<[String]>([])
        let box = SharedValue<HTTPServer?>(nil)
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { _ in
            guard let loop = box.get()?.eventLoops.first else { return .fault(.emptyResponse) }
            let reply = DeferredReply()
            let cancelled = loop.schedule(after: .milliseconds(20)) { ran.update { $0.append("cancelled") } }
            cancelled.cancel()
            loop.schedule(after: .milliseconds(40)) {
                ran.update { $0.append(loop.inEventLoop ? "on loop" : "elsewhere") }
                reply.complete(.response(HTTPResponse(text: "done")))
            }
            return .deferred(reply)
        }
        try withServer(handler: handler) { server in
            box.set(server)
            defer { box.set(nil) }
            let client = try RawClient(port: server.port)
            try client.send(get("/"))
            #expect(try client.readResponse().text == "done")
        }
        #expect(ran.get() == ["on loop"])
    }

    @Test func executeFromAnotherThreadRunsOnTheLoop() throws {
        let box = SharedValue<HTTPServer?>(nil)
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { _ in
            guard let loop = box.get()?.eventLoops.first else { return .fault(.emptyResponse) }
            let reply = DeferredReply()
            DispatchQueue.global().async {
                let outside = loop.inEventLoop
                loop.execute { reply.complete(.response(HTTPResponse(text: "\(outside) \(loop.inEventLoop)"))) }
            }
            return .deferred(reply)
        }
        try withServer(handler: handler) { server in
            box.set(server)
            defer { box.set(nil) }
            let client = try RawClient(port: server.port)
            try client.send(get("/"))
            #expect(try client.readResponse().text == "false true")
        }
    }
}
