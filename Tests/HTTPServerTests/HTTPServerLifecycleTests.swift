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

/// Deadlines and timers on the wire. The deadline rules (header, body, idle, stalled, linger)
/// are tested as values in `ConnectionStateMachineTests`; these check that the loop applies
/// them, and reads the time from the configured clock (`TimeSource`).
@Suite struct HTTPServerTimeoutTests {
    @Test func slowHeadGets408ThenCloseWhenTheServerClockSaysSo() throws {
        // Real timeouts far longer than any test: only the hand-moved clock can bring the 408.
        let configuration = HTTPServerConfiguration(
            eventLoopCount: 1, headerTimeout: .seconds(600), idleTimeout: .seconds(6000))
        try withClockedServer(configuration, handler: echoPath) { server in
            let client = try RawClient(port: server.port)
            try client.send("GET / HTTP/1.1\r\nHost: h\r\n")
            let answered = server.advance(by: .seconds(601), untilAnswered: client)
            #expect(answered, "no 408 after the clock passed the header deadline")
            let response = try client.readResponse()
            #expect(response.status == 408)
            #expect(try client.ending() == .closed([]))
        }
    }

    @Test func idleKeepAliveConnectionIsClosedQuietlyAtTheIdleDeadline() throws {
        let configuration = HTTPServerConfiguration(eventLoopCount: 1, idleTimeout: .seconds(600))
        try withClockedServer(configuration, handler: echoPath) { server in
            let client = try RawClient(port: server.port)
            try client.send(get("/"))
            #expect(try client.readResponse().status == 200)
            server.loop.settle()
            server.advance(by: .seconds(599))
            #expect(!client.hasPendingInput, "closed before the idle deadline")
            server.advance(by: .seconds(1))
            #expect(try client.ending() == .closed([]))
        }
    }
}

@Suite struct HTTPServerShutdownTests {
    @Test func shutdownFinishesInFlightResponsesAndClosesEveryConnection() throws {
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { _ in
            .response(HTTPResponse(text: "finished")).delayed(by: .fixed(.seconds(1)))
        }
        try withClockedServer(handler: handler) { server in
            let idle = try RawClient(port: server.port)
            try idle.send(get("/idle"))
            try server.requestArrived()
            server.advance(by: .seconds(1))
            #expect(try idle.readResponse().text == "finished")
            let busy = try RawClient(port: server.port)
            try busy.send(get("/"))
            try server.requestArrived()
            server.server.shutdown()
            server.loop.settle()  // the shutdown began at this reading of the clock
            #expect(try idle.ending() == .closed([]), "an idle connection is closed at once")
            #expect(!busy.hasPendingInput, "the in-flight answer is awaited")
            // Only wakes the loop (no settle): once the answer is out, the loop may stop.
            server.time.advance(by: .seconds(1))
            server.loop.execute {}
            let response = try busy.readResponse()
            #expect(response.text == "finished")
            #expect(response.header("Connection") == "close")
            #expect(try busy.ending() == .closed([]))
            server.time.release()  // the linger after the answer ends at the loop's next look
            server.loop.execute {}
            server.server.waitUntilStopped()
            // No connect to the old port here: once freed, another test's server may bind it (a
            // stray connection from such a check once failed an unrelated test).
            #expect(server.server.eventLoops.isEmpty)
        }
    }

    @Test func gracePeriodBoundsTheWait() throws {
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { _ in .deferred(DeferredReply()) }  // never answers
        let configuration = HTTPServerConfiguration(eventLoopCount: 1, shutdownGracePeriod: .seconds(600))
        try withClockedServer(configuration, handler: handler) { server in
            let client = try RawClient(port: server.port)
            try client.send(get("/"))
            try server.requestArrived()
            server.server.shutdown()
            server.loop.settle()  // the grace period began at this reading of the clock
            server.advance(by: .seconds(599))
            #expect(!client.hasPendingInput, "closed before the grace period ended")
            server.time.advance(by: .seconds(1))
            server.loop.execute {}  // wakes the loop to look at the clock; it stops then
            server.server.waitUntilStopped()
            #expect(try client.ending() == .closed([]))
        }
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
        let box = Locked<HTTPServer?>(nil)
        let server = HTTPServer(configuration: HTTPServerConfiguration(eventLoopCount: 1)) { _ in
            box.withLock { $0 }?.shutdown()  // takes effect on the loop's next turn: the reply still goes out
            return .response(HTTPResponse(text: "bye"))
        }
        box.withLock { $0 = server }
        try server.start()
        let client = try RawClient(port: server.port)
        try client.send(get("/__admin/shutdown"))
        #expect(try client.readResponse().text == "bye")
        #expect(try client.ending() == .closed([]))
        server.waitUntilStopped()
        box.withLock { $0 = nil }
    }
}

@Suite struct HTTPServerLateAnswerTests {
    @Test func answersAfterStopAreDropped() throws {
        let kept = Locked<DeferredReply?>(nil)
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { _ in
            let reply = DeferredReply()
            kept.withLock { $0 = reply }
            return .deferred(reply)
        }
        try withClockedServer(handler: handler) { server in
            let client = try RawClient(port: server.port)
            try client.send(get("/"))
            try server.requestArrived()
            server.time.release()  // the grace period ends at the loop's next look
            server.server.stop()
            let reply = try #require(kept.withLock { $0 })
            reply.complete(.response(HTTPResponse(text: "too late")))
            #expect(try client.ending() == .closed([]))
        }
        kept.withLock { $0 = nil }  // the handler's closure holds `kept`: break the cycle through the loop
    }
}

@Suite struct HTTPEventLoopTimerTests {
    @Test func scheduledWorkRunsOnTheLoopAndCancelledWorkDoesNot() throws {
        let ran = Locked<[String]>([])
        try withClockedServer(handler: echoPath) { server in
            let loop = server.loop
            let cancelled = loop.schedule(after: .seconds(20)) { ran.withLock { $0.append("cancelled") } }
            cancelled.cancel()
            loop.schedule(after: .seconds(40)) {
                ran.withLock { $0.append(loop.inEventLoop ? "on loop" : "elsewhere") }
            }
            loop.settle()
            server.advance(by: .seconds(39))
            #expect(ran.withLock { $0 }.isEmpty, "work ran before its time")
            server.advance(by: .seconds(1))
            #expect(ran.withLock { $0 } == ["on loop"])
        }
    }

    /// Work the loop stops before running tells its owner once (a webhook's slot is given
    /// back); cancelled work does not, and work scheduled on a stopped loop is told at once.
    /// The real clock, as stopping a hand-moved one releases it and every timer would run.
    @Test func workDroppedWhenTheLoopStopsIsToldToItsOwner() throws {
        let heard = Locked<[String]>([])
        let live = try LiveHTTPServer(
            configuration: HTTPServerConfiguration(eventLoopCount: 1), handler: HTTPClosureHandler(echoPath))
        let loop = try #require(live.server.eventLoops.first)
        loop.schedule(
            after: .seconds(600), { heard.withLock { $0.append("pending ran") } },
            ifDropped: { heard.withLock { $0.append("pending: dropped") } })
        let cancelled = loop.schedule(
            after: .seconds(600), { heard.withLock { $0.append("cancelled ran") } },
            ifDropped: { heard.withLock { $0.append("cancelled: dropped") } })
        cancelled.cancel()
        // The loop's jobs run in order: once this one has, both are on its timers, one cancelled.
        let registered = DispatchSemaphore(value: 0)
        loop.execute { registered.signal() }
        #expect(registered.wait(timeout: .now() + .seconds(20)) == .success)
        #expect(heard.withLock { $0 }.isEmpty)
        live.stop()
        #expect(heard.withLock { $0 } == ["pending: dropped"])
        loop.schedule(
            after: .zero, { heard.withLock { $0.append("late ran") } },
            ifDropped: { heard.withLock { $0.append("late: dropped") } })
        #expect(heard.withLock { $0 } == ["pending: dropped", "late: dropped"])
    }

    @Test func executeFromAnotherThreadRunsOnTheLoop() throws {
        let box = Locked<HTTPServer?>(nil)
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { _ in
            guard let loop = box.withLock({ $0 })?.eventLoops.first else { return .fault(.emptyResponse) }
            let reply = DeferredReply()
            DispatchQueue.global().async {
                let outside = loop.inEventLoop
                loop.execute { reply.complete(.response(HTTPResponse(text: "\(outside) \(loop.inEventLoop)"))) }
            }
            return .deferred(reply)
        }
        try withServer(handler: handler) { server in
            box.withLock { $0 = server }
            defer { box.withLock { $0 = nil } }
            let client = try RawClient(port: server.port)
            try client.send(get("/"))
            #expect(try client.readResponse().text == "false true")
        }
    }
}

/// `start(beforeAccepting:)`: the port is taken before the preparation (a database opening,
/// say) and connections are accepted only after it, so no client meets a half-ready server.
@Suite struct HTTPServerBeforeAcceptingTests {
    @Test func aClientThatConnectsWhilePreparingIsAnsweredByTheReadyServer() throws {
        let ready = Locked(false)
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, eventLoopCount: 1)) { _ in
            .response(HTTPResponse(text: ready.withLock { $0 } ? "ready" : "half-ready"))
        }
        var early: RawClient?
        try server.start(beforeAccepting: {
            // The connection completes in the listen backlog; nothing reads it yet.
            let client = try RawClient(port: server.port)
            try client.send(get("/"))
            #expect(!client.hasPendingInput)
            ready.withLock { $0 = true }
            early = client
        })
        defer { server.stop() }
        #expect(try early?.readResponse().text == "ready")
    }

    @Test func aFailedPreparationClosesThePortAndIsRethrown() throws {
        struct Refused: Error {}
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, eventLoopCount: 2)) { _ in
            .response(HTTPResponse(text: "ok"))
        }
        var port = 0
        #expect(throws: Refused.self) {
            try server.start(beforeAccepting: {
                port = server.port
                throw Refused()
            })
        }
        #expect(port != 0 && server.port == 0)
        #expect(throws: RawClientError.self, "the port is closed again") { _ = try RawClient(port: port) }
        // The server is as before: it can start.
        try server.start()
        defer { server.stop() }
        #expect(try fetch(server.port, "/").text == "ok")
    }
}
