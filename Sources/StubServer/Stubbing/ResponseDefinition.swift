import HTTPCore
import JSONKit

/// What a mapping answers: status, headers, body, delays or a fault (WireMock's response
/// definition).
///
/// ```swift
/// ResponseDefinition(status: 503, headers: ["Retry-After": "120"], body: .json(["code": 503]),
///                    fixedDelayMilliseconds: 200)
/// ```
public struct ResponseDefinition: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// A reason phrase instead of the standard one (`statusMessage`).
    public var statusMessage: String?
    /// The header fields, in order (a name may repeat).
    public var headers: HTTPHeaders
    /// The body.
    public var body: ResponseBody
    /// A fixed wait before answering, in milliseconds.
    public var fixedDelayMilliseconds: Int?
    /// A random wait before answering (added to the fixed one).
    public var delayDistribution: DelayDistribution?
    /// Send the body in pieces spread over a time (`chunkedDribbleDelay`).
    public var chunkedDribbleDelay: ChunkedDribbleDelay?
    /// Break the connection instead of answering.
    public var fault: StubFault?

    /// Creates a response definition.
    public init(
        status: Int = 200, statusMessage: String? = nil, headers: HTTPHeaders = HTTPHeaders(),
        body: ResponseBody = .none, fixedDelayMilliseconds: Int? = nil, delayDistribution: DelayDistribution? = nil,
        chunkedDribbleDelay: ChunkedDribbleDelay? = nil, fault: StubFault? = nil
    ) {
        self.status = status
        self.statusMessage = statusMessage
        self.headers = headers
        self.body = body
        self.fixedDelayMilliseconds = fixedDelayMilliseconds
        self.delayDistribution = delayDistribution
        self.chunkedDribbleDelay = chunkedDribbleDelay
        self.fault = fault
    }
}

/// Where a response body comes from; WireMock's `body`, `jsonBody`, `base64Body` and
/// `bodyFileName`.
public enum ResponseBody: Sendable, Hashable {
    /// No body.
    case none
    /// Text, sent as UTF-8 (`body`).
    case text(String)
    /// JSON, sent compact (`jsonBody`).
    case json(JSONValue)
    /// Bytes (`base64Body`).
    case bytes([UInt8])
    /// A file under the stub root's `__files/` (`bodyFileName`), read once at load.
    case file(String)
}

/// A random delay (`delayDistribution`).
public enum DelayDistribution: Sendable, Hashable {
    /// Uniform between `lower` and `upper` milliseconds.
    case uniform(lower: Int, upper: Int)
    /// Log-normal with this median (ms) and shape; `maxValue` (ms) caps it.
    case lognormal(median: Double, sigma: Double, maxValue: Double? = nil)
}

/// Sending the body in `numberOfChunks` pieces over `totalDuration` milliseconds.
public struct ChunkedDribbleDelay: Sendable, Hashable {
    /// How many pieces.
    public var numberOfChunks: Int
    /// Over how many milliseconds.
    public var totalDuration: Int

    /// Creates a dribble.
    public init(numberOfChunks: Int, totalDuration: Int) {
        self.numberOfChunks = numberOfChunks
        self.totalDuration = totalDuration
    }
}

/// WireMock's four ways to break a connection.
public enum StubFault: String, Sendable, Hashable, CaseIterable {
    /// Close without a response.
    case emptyResponse = "EMPTY_RESPONSE"
    /// A head announcing a chunked body, then a broken chunk.
    case malformedResponseChunk = "MALFORMED_RESPONSE_CHUNK"
    /// Random bytes, then close.
    case randomDataThenClose = "RANDOM_DATA_THEN_CLOSE"
    /// A TCP reset.
    case connectionResetByPeer = "CONNECTION_RESET_BY_PEER"
}
