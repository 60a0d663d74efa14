import Dispatch
import HTTPCore
import HTTPServerKit
import TestSupport
import Testing

/// Runs `body` against a started server on a free port and always stops the server.
func withServer<T>(
    _ configuration: HTTPServerConfiguration = HTTPServerConfiguration(eventLoopCount: 1),
    handler: @escaping @Sendable (HTTPServerRequest) -> HTTPReply,
    _ body: (HTTPServer) throws -> T
) throws -> T {
    let live = try LiveHTTPServer(configuration: configuration, handler: HTTPClosureHandler(handler))
    defer { live.stop() }
    return try body(live.server)
}

/// A handler answering `path` in the body, for order checks.
let echoPath: @Sendable (HTTPServerRequest) -> HTTPReply = { request in
    return .response(HTTPResponse(text: String(request.path)))
}

/// A one-loop server whose time is a ``ManualClock``: delays, dribbles, deadlines and grace
/// periods come when the test moves the clock, never after a real wait.
struct ClockedServer {
    let server: HTTPServer
    let time: ManualClock
    let loop: HTTPEventLoop
    /// Signalled by the handler each time it is called (see ``withClockedServer``).
    let arrivals: DispatchSemaphore

    var port: Int { server.port }

    /// Waits until the handler has been called once more, and the loop has applied its reply
    /// (armed the delay, sent the first piece of a dribble).
    func requestArrived() throws {
        try #require(arrivals.wait(timeout: .now() + 10) == .success, "the request never reached the handler")
        loop.settle()
    }

    /// Moves the clock on and waits until the loop has run whatever came due.
    func advance(by duration: Duration) {
        time.advance(by: duration)
        loop.settle()
    }

    /// Moves the clock on by `step`, round after round, until `client` has something to read
    /// or `rounds` are used up; whether it has. Rounds cover bytes the loop had not read yet
    /// when the clock first moved (their deadline is armed at a later reading): each round
    /// waits on the loop's turn, not on a timer.
    func advance(by step: Duration, untilAnswered client: RawClient, rounds: Int = 1000) -> Bool {
        for _ in 0..<rounds {
            advance(by: step)
            if client.hasPendingInput { return true }
        }
        return false
    }
}

/// Runs `body` against a one-loop server on a ``ManualClock`` (`configuration`'s clock is
/// replaced); the handler's every call signals ``ClockedServer/arrivals``. At the end the
/// clock is released, so stopping does not wait on the grace period.
func withClockedServer<T>(
    _ configuration: HTTPServerConfiguration = HTTPServerConfiguration(eventLoopCount: 1),
    handler: @escaping @Sendable (HTTPServerRequest) -> HTTPReply,
    _ body: (ClockedServer) throws -> T
) throws -> T {
    let time = ManualClock()
    var configuration = configuration
    configuration.clock = time.clock
    let arrivals = DispatchSemaphore(value: 0)
    let live = try LiveHTTPServer(
        configuration: configuration,
        handler: HTTPClosureHandler { request in
            defer { arrivals.signal() }
            return handler(request)
        })
    defer {
        time.release()
        live.stop()
    }
    let loop = try #require(live.server.eventLoops.first)
    return try body(ClockedServer(server: live.server, time: time, loop: loop, arrivals: arrivals))
}
