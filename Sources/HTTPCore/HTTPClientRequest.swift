/// An HTTP request for an ``HTTPTransport``.
public struct HTTPClientRequest: Sendable, Hashable {
    /// The request method.
    public var method: HTTPMethod
    /// The absolute URL, for example `http://127.0.0.1:8080/api/pets`.
    public var url: String
    /// Header fields to send, in order; the transport adds `Host`, `Content-Length` and
    /// `Accept-Encoding` itself.
    public var headers: HTTPHeaders
    /// The request body, or nil for none.
    public var body: [UInt8]?
    /// The total time allowed for this request, overriding the transport's default.
    public var timeout: Duration?

    /// Creates a request.
    public init(
        method: HTTPMethod = .get, url: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8]? = nil,
        timeout: Duration? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}
