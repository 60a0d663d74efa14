/// The status line and header fields of an HTTP response.
public struct HTTPResponseHead: Sendable, Hashable {
    /// The response status.
    public var status: HTTPStatus
    /// The protocol version of the status line.
    public var version: HTTPVersion
    /// The header fields in the order to send or as received.
    public var headers: HTTPHeaders

    /// Creates a response head.
    public init(status: HTTPStatus, version: HTTPVersion = .http11, headers: HTTPHeaders = HTTPHeaders()) {
        self.status = status
        self.version = version
        self.headers = headers
    }
}
