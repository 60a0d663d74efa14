/// One HTTP response as ``RawClient`` read it off the socket.
public struct RawResponse: Sendable {
    /// The status code from the status line.
    public var status: Int
    /// The header fields, in the order they came.
    public var headers: RawHeaders
    /// The body, with chunked framing removed (empty for HEAD, 1xx, 204 and 304).
    public var body: [UInt8] = []
    /// The size of each chunk, in order, when the body came chunked; nil otherwise.
    public var chunkSizes: [Int]?

    /// A response with these parts.
    public init(status: Int, headers: RawHeaders, body: [UInt8] = [], chunkSizes: [Int]? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.chunkSizes = chunkSizes
    }

    /// The value of the first header field with this name, ignoring case (`headers[name]`).
    public func header(_ name: String) -> String? {
        headers[name]
    }

    /// The body decoded as UTF-8.
    public var text: String { String(decoding: body, as: UTF8.self) }
}
