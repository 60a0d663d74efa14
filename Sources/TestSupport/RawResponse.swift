/// One HTTP response as ``RawClient`` read it off the socket.
package struct RawResponse: Sendable {
    /// The status code from the status line.
    package var status: Int
    /// The header fields, in the order they came.
    package var headers: RawHeaders
    /// The body, with chunked framing removed (empty for HEAD, 1xx, 204 and 304).
    package var body: [UInt8] = []
    /// The size of each chunk, in order, when the body came chunked; nil otherwise.
    package var chunkSizes: [Int]?

    /// A response with these parts.
    package init(status: Int, headers: RawHeaders, body: [UInt8] = [], chunkSizes: [Int]? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.chunkSizes = chunkSizes
    }

    /// The value of the first header field with this name, ignoring case (`headers[name]`).
    package func header(_ name: String) -> String? {
        headers[name]
    }

    /// The body decoded as UTF-8.
    package var text: String { String(decoding: body, as: UTF8.self) }
}
