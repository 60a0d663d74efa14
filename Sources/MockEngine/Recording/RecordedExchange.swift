import HTTPCore

/// One request sent to the live API and what came back: the material a recorded mapping is
/// made of.
public struct RecordedExchange: Sendable {
    /// The method.
    public var method: HTTPMethod
    /// The path and query the stub will match, as sent (percent-encoded): `/api/pets?limit=2`.
    public var url: String
    /// The request's header fields (only the captured ones reach a mapping).
    public var headers: HTTPHeaders
    /// The request body.
    public var body: [UInt8]
    /// What the live API answered, or why it did not.
    public var upstream: UpstreamResult

    /// Creates an exchange.
    public init(method: HTTPMethod, url: String, headers: HTTPHeaders, body: [UInt8], upstream: UpstreamResult) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.upstream = upstream
    }

    /// `GET /api/pets`, for messages.
    public var label: String { "\(method) \(url)" }
}

/// What a request forwarded to the live API got: a whole response (any status), or the
/// transport's error when no response arrived.
public struct UpstreamResult: Sendable {
    /// The URL the request went to.
    public var url: String
    /// The response, or why there was none.
    public var outcome: Result<HTTPClientResponse, HTTPClientError>
    /// How long the upstream took.
    public var duration: Duration

    /// Creates a result.
    public init(url: String, outcome: Result<HTTPClientResponse, HTTPClientError>, duration: Duration) {
        self.url = url
        self.outcome = outcome
        self.duration = duration
    }

    /// The response, when one arrived.
    public var response: HTTPClientResponse? {
        if case .success(let response) = outcome { return response }
        return nil
    }

    /// The error, when no response arrived.
    public var failure: HTTPClientError? {
        if case .failure(let error) = outcome { return error }
        return nil
    }

    /// What the caller was given: the response, a 502/504, or a broken connection.
    public var reply: ProxyReply { ProxyReply(self) }
}
