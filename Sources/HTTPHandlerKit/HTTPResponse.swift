import HTTPCore

/// A response built per request: status, headers and a complete body.
///
/// The server adds `Date`, `Content-Length` (or `Transfer-Encoding: chunked`), and
/// `Connection` when needed; a `Content-Length`, `Transfer-Encoding` or `Connection` field set
/// here is replaced by the server's own (`Connection: close` here closes the connection after
/// the response). For a response sent many times, build a ``PreparedResponse`` once instead.
///
/// ```swift
/// return .response(HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"], body: Array(json.utf8)))
/// ```
public struct HTTPResponse: Sendable, Hashable {
    /// Whether and how the body may be gzip-compressed.
    public enum Compression: Sendable, Hashable {
        /// Send the body as it is.
        case identity
        /// Compress the body with gzip when the request's `Accept-Encoding` allows it.
        case gzipIfAccepted
        /// Send these already gzip-compressed bytes when the request allows gzip, else the body.
        case precompressedGzip([UInt8])
    }

    /// How the body is delimited on the wire.
    public enum Framing: Sendable, Hashable {
        /// `Content-Length` (the default).
        case contentLength
        /// `Transfer-Encoding: chunked`, the body as one chunk (HTTP/1.0 clients get `Content-Length`).
        case chunked
    }

    /// The status.
    public var status: HTTPStatus
    /// The header fields, in order.
    public var headers: HTTPHeaders
    /// The body; not sent for HEAD requests or statuses that forbid one.
    public var body: [UInt8]
    /// Whether the body may be gzip-compressed.
    public var compression: Compression
    /// How the body is delimited.
    public var framing: Framing

    /// Creates a response.
    public init(
        status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
        compression: Compression = .identity, framing: Framing = .contentLength
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.compression = compression
        self.framing = framing
    }

    /// Creates a response with a UTF-8 text body and the given content type.
    public init(status: HTTPStatus = .ok, text: String, contentType: String = "text/plain; charset=utf-8") {
        self.init(status: status, headers: HTTPHeaders([("Content-Type", contentType)]), body: Array(text.utf8))
    }
}
