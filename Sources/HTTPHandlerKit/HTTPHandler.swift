/// Something that answers requests: a function from a request to a reply value.
///
/// The server calls ``reply(to:)`` on an event-loop thread with each complete request and
/// turns the returned ``HTTPReply`` into bytes. It must not block: answer from memory, or
/// return `.deferred` and finish the work elsewhere. Because a reply is a value, a handler is
/// tested without sockets: build an ``HTTPServerRequest``, call `reply(to:)`, read the reply.
public protocol HTTPHandler: Sendable {
    /// The reply to one request.
    func reply(to request: HTTPServerRequest) -> HTTPReply
}

/// A handler made from a closure.
///
/// ```swift
/// let handler = HTTPClosureHandler { request in .response(HTTPResponse(text: "hello")) }
/// ```
public struct HTTPClosureHandler: HTTPHandler {
    private let body: @Sendable (HTTPServerRequest) -> HTTPReply

    /// Creates a handler that calls `body` for each request.
    public init(_ body: @escaping @Sendable (HTTPServerRequest) -> HTTPReply) {
        self.body = body
    }

    public func reply(to request: HTTPServerRequest) -> HTTPReply {
        body(request)
    }
}
