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
    /// Forward the request to another server and answer what it answers (`proxyBaseUrl`).
    public var proxy: ProxyDefinition?
    /// The response transformers, as written (`transformers`); petmock knows
    /// `response-template`, which renders the response as a Handlebars template per request.
    public var transformers: [String] = []
    /// What templates read as `parameters` (`transformerParameters`, an object).
    public var transformerParameters: JSONObject?

    /// Whether the mapping asks for response templating (`"transformers": ["response-template"]`).
    public var isTemplated: Bool { transformers.contains(Self.responseTemplate) }

    /// WireMock's name for the templating transformer.
    public static let responseTemplate = "response-template"

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

/// A stub that passes the request on (WireMock's `proxyBaseUrl` and friends), so a stub folder
/// can mix canned answers with the real API.
public struct ProxyDefinition: Sendable, Hashable {
    /// The upstream's base URL; the request's path and query are appended (`proxyBaseUrl`).
    public var baseURL: String
    /// Header fields added to the forwarded request (`additionalProxyRequestHeaders`).
    public var additionalRequestHeaders: HTTPHeaders
    /// Header names left out of the forwarded request (`removeProxyRequestHeaders`).
    public var removedRequestHeaders: [String]
    /// A prefix taken off the path before forwarding (`proxyUrlPrefixToRemove`).
    public var urlPrefixToRemove: String?

    /// Creates a proxy definition.
    public init(
        baseURL: String, additionalRequestHeaders: HTTPHeaders = HTTPHeaders(), removedRequestHeaders: [String] = [],
        urlPrefixToRemove: String? = nil
    ) {
        self.baseURL = baseURL
        self.additionalRequestHeaders = additionalRequestHeaders
        self.removedRequestHeaders = removedRequestHeaders
        self.urlPrefixToRemove = urlPrefixToRemove
    }

    /// The request target upstream: the prefix removed when the path starts with it.
    package func upstreamOriginForm(_ originForm: Substring) -> Substring {
        guard let prefix = urlPrefixToRemove, !prefix.isEmpty, originForm.hasPrefix(prefix) else { return originForm }
        let rest = originForm.dropFirst(prefix.count)
        return rest.isEmpty || rest.first == "?" ? Substring("/" + rest) : rest
    }

    /// The request's header fields as forwarded: removed ones out, additional ones in.
    package func forwardedHeaders(_ headers: HTTPHeaders) -> HTTPHeaders {
        var result = headers
        // An added header replaces what the client sent under that name.
        for name in removedRequestHeaders + additionalRequestHeaders.fields.map(\.name) { result.remove(name: name) }
        for field in additionalRequestHeaders.fields { result.add(name: field.name, value: field.value) }
        return result
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
