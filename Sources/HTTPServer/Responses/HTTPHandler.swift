/// Something that answers requests: the server calls it on an event-loop thread with each
/// complete request, and it answers through the responder, at once or later.
///
/// `handle` runs on the event loop, so it must not block: answer at once from memory, or
/// start the work elsewhere (a `Task`, another thread) and call the responder from there.
public protocol HTTPHandler: Sendable {
    /// Handles one request; must eventually call exactly one of the responder's methods.
    func handle(_ request: HTTPServerRequest, responder: HTTPResponder)
}

/// A handler made from a closure.
///
/// ```swift
/// let handler = HTTPClosureHandler { request, responder in
///     responder.respond(HTTPResponse(text: "hello"))
/// }
/// ```
public struct HTTPClosureHandler: HTTPHandler {
    private let body: @Sendable (HTTPServerRequest, HTTPResponder) -> Void

    /// Creates a handler that calls `body` for each request.
    public init(_ body: @escaping @Sendable (HTTPServerRequest, HTTPResponder) -> Void) {
        self.body = body
    }

    public func handle(_ request: HTTPServerRequest, responder: HTTPResponder) {
        body(request, responder)
    }
}
