import Dispatch
import HTTPHandlerKit
import HTTPServerKit
import Platform

/// A ``LiveHTTPServer`` with one event loop on a ``ManualClock``: delays, dribbles, deadlines
/// and grace periods come when the test moves the clock, never after a real wait. The handler's
/// every call is counted, so a test knows when a request has arrived before moving the clock.
///
/// ```swift
/// let server = try ClockedHTTPServer(handler: handler)
/// defer { server.stop() }
/// let client = try RawClient(port: server.port)
/// try client.send(get("/slow"))
/// try server.requestArrived()
/// server.advance(by: .seconds(600))
/// #expect(try client.readResponse().text == "slow")
/// ```
package final class ClockedHTTPServer: Sendable {
    /// The running server.
    package let server: HTTPServer
    /// Its clock.
    package let time: ManualClock
    /// Its one event loop.
    package let loop: HTTPEventLoop
    private let live: LiveHTTPServer
    private let arrivals: DispatchSemaphore

    /// Starts `handler` on a free port; `configuration`'s clock is replaced by the manual one
    /// and its event loop count by 1.
    package init(
        _ configuration: HTTPServerConfiguration = HTTPServerConfiguration(eventLoopCount: 1),
        handler: some HTTPHandler
    ) throws(HTTPServerError) {
        let time = ManualClock()
        var configuration = configuration
        configuration.clock = time.clock
        configuration.eventLoopCount = 1
        let arrivals = DispatchSemaphore(value: 0)
        self.arrivals = arrivals
        live = try LiveHTTPServer(
            configuration: configuration,
            handler: HTTPClosureHandler { request in
                defer { arrivals.signal() }
                return handler.reply(to: request)
            })
        server = live.server
        self.time = time
        guard let loop = live.server.eventLoops.first else {
            throw .unavailable(what: "an event loop", reason: "the server started without one")
        }
        self.loop = loop
    }

    /// Starts a handler made of a closure (see ``init(_:handler:)``).
    package convenience init(
        _ configuration: HTTPServerConfiguration = HTTPServerConfiguration(eventLoopCount: 1),
        _ handler: @escaping @Sendable (HTTPServerRequest) -> HTTPReply
    ) throws(HTTPServerError) {
        try self.init(configuration, handler: HTTPClosureHandler(handler))
    }

    deinit {
        stop()
    }

    /// The bound port.
    package var port: Int { server.port }

    /// Waits until the handler has been called once more and the loop has applied its reply
    /// (armed the delay, sent the first piece of a dribble); `.timedOut` if no request came
    /// within 10 s, a bound for a broken test rather than a wait.
    package func requestArrived() throws(RawClientError) {
        guard arrivals.wait(timeout: .now() + 10) == .success else { throw .timedOut }
        loop.settle()
    }

    /// Moves the clock on and waits until the loop has run whatever came due. The loop must
    /// keep running (see ``HTTPEventLoop/settle()``).
    package func advance(by duration: Duration) {
        time.advance(by: duration)
        loop.settle()
    }

    /// Moves the clock on by `step`, round after round, until `client` has something to read
    /// or `rounds` are used up; whether it has. Rounds cover bytes the loop had not read yet
    /// when the clock first moved (their deadline is armed at a later reading): each round
    /// waits on the loop's turn, not on a timer.
    package func advance(by step: Duration, untilAnswered client: RawClient, rounds: Int = 1000) -> Bool {
        for _ in 0..<rounds {
            advance(by: step)
            if client.hasPendingInput { return true }
        }
        return false
    }

    /// Releases the clock (every deadline and the grace period end at the loop's next look)
    /// and stops the server; release does the same.
    package func stop() {
        time.release()
        live.stop()
    }
}
