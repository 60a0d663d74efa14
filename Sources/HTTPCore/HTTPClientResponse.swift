/// A complete HTTP response: status, headers, the body bytes as received (after content
/// decoding) and how long each phase took.
public struct HTTPClientResponse: Sendable, Hashable {
    /// The response status.
    public var status: HTTPStatus
    /// The protocol version the server answered with.
    public var version: HTTPVersion
    /// The header fields in the order received (the `Content-Encoding` header is kept even
    /// when the body was decoded; see ``contentEncoding``).
    public var headers: HTTPHeaders
    /// The body bytes, gzip/deflate already removed.
    public var body: [UInt8]
    /// The content coding the body arrived in (`gzip`, `deflate`), or nil when it came plain.
    public var contentEncoding: String?
    /// The URL that answered.
    public var url: String
    /// Phase timings of the transfer.
    public var timings: HTTPTimings
    /// Whether the request went over a connection kept open from an earlier one (keep-alive).
    public var connectionReused: Bool = false

    /// Creates a response; test doubles usually give status, headers and body only.
    public init(
        status: HTTPStatus, version: HTTPVersion = .http11, headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [], contentEncoding: String? = nil, url: String = "", timings: HTTPTimings = HTTPTimings()
    ) {
        self.status = status
        self.version = version
        self.headers = headers
        self.body = body
        self.contentEncoding = contentEncoding
        self.url = url
        self.timings = timings
    }

    /// The media type of `Content-Type` without parameters, lower-cased (`application/json`).
    public var mediaType: String? {
        guard let type = headers["Content-Type"]?.mediaTypeEssence else { return nil }
        return type.isEmpty ? nil : type
    }
}
