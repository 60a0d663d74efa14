import HTTPCore
import HTTPHandlerKit
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

/// Runs `body` against a one-loop server on a ``ManualClock`` (TestSupport's
/// ``ClockedHTTPServer``); stopping at the end releases the clock, so it does not wait on the
/// grace period.
func withClockedServer<T>(
    _ configuration: HTTPServerConfiguration = HTTPServerConfiguration(eventLoopCount: 1),
    handler: @escaping @Sendable (HTTPServerRequest) -> HTTPReply,
    _ body: (ClockedHTTPServer) throws -> T
) throws -> T {
    let server = try ClockedHTTPServer(configuration, handler)
    defer { server.stop() }
    return try body(server)
}
