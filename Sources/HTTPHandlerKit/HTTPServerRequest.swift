import HTTPCore

/// A complete request as a handler receives it: head, whole body and the client's address.
public struct HTTPServerRequest: Sendable {
    /// The request line and header fields, in the order received.
    public var head: HTTPRequestHead
    /// The body bytes (de-chunked); empty when there is none.
    public var body: [UInt8]
    /// The client's address.
    public var remoteAddress: HTTPSocketAddress
    /// The event loop the request arrived on, whose thread calls the handler: where a handler
    /// finds the parts that run on that loop (HTTPServerKit's `HTTPEventLoop` and its loop
    /// extensions). Nil for a request a test or an in-process caller made.
    public var eventLoop: (any HTTPRequestLoop)?
    /// Whether the request came over TLS (HTTPS): set by the connection that read it, or by
    /// an in-process front end from the URL's scheme.
    public var isSecure = false

    /// Creates a request (for tests of handlers).
    public init(head: HTTPRequestHead, body: [UInt8] = [], remoteAddress: HTTPSocketAddress) {
        self.head = head
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// Creates a request as a client on this machine would send it, for tests of handlers:
    /// `HTTPServerRequest(method: .post, target: "/api/pets", body: Array(json.utf8))`.
    public init(
        method: HTTPMethod = .get, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
        remoteAddress: HTTPSocketAddress = HTTPSocketAddress(ipv4: (127, 0, 0, 1), port: 49152)
    ) {
        self.init(
            head: HTTPRequestHead(method: method, target: target, headers: headers), body: body,
            remoteAddress: remoteAddress)
    }

    /// The method.
    public var method: HTTPMethod { head.method }
    /// The header fields.
    public var headers: HTTPHeaders { head.headers }
    /// The target's path, still percent-encoded (absolute-form targets reduced to it).
    public var path: Substring { head.path }
    /// The target's raw query after `?`, or nil.
    public var query: Substring? { head.query }
    /// `https` for a request that came over TLS, else `http`.
    public var scheme: String { isSecure ? "https" : "http" }
}
