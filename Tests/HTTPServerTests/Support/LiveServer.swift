import HTTPCore
import HTTPServerKit
import TestSupport

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

/// Measures wall-clock time of `body` in milliseconds (for lower bounds of delays only).
func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    try body()
    let elapsed = clock.now - start
    let (seconds, attoseconds) = elapsed.components
    return Double(seconds) * 1000 + Double(attoseconds) / 1e15
}
