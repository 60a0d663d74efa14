import HTTPCore

/// A complete request as a handler receives it: head, whole body and the client's address.
public struct HTTPServerRequest: Sendable {
    /// The request line and header fields, in the order received.
    public var head: HTTPRequestHead
    /// The body bytes (de-chunked); empty when there is none.
    public var body: [UInt8]
    /// The client's address.
    public var remoteAddress: HTTPSocketAddress

    /// Creates a request (for tests of handlers).
    public init(head: HTTPRequestHead, body: [UInt8] = [], remoteAddress: HTTPSocketAddress) {
        self.head = head
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// The method.
    public var method: HTTPMethod { head.method }
    /// The header fields.
    public var headers: HTTPHeaders { head.headers }
    /// The target's path, still percent-encoded (absolute-form targets reduced to it).
    public var path: Substring { head.path }
    /// The target's raw query after `?`, or nil.
    public var query: Substring? { head.query }
}
