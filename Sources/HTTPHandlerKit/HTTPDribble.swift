/// Sending a body slowly: split into `chunkCount` chunks spread evenly over `duration`
/// (WireMock's `chunkedDribbleDelay`). The response goes out with `Transfer-Encoding: chunked`
/// (HTTP/1.0 clients get `Content-Length` and the same pieces).
public struct HTTPDribble: Sendable, Hashable {
    /// How many chunks the body is split into (at least 1).
    public var chunkCount: Int
    /// The time from the first chunk to the end of the body.
    public var duration: Duration

    /// Creates a dribble.
    public init(chunkCount: Int, duration: Duration) {
        self.chunkCount = chunkCount
        self.duration = duration
    }
}
