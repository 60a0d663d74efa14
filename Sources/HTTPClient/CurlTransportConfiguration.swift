import HTTPCore

/// How a ``CurlTransport`` connects, waits and limits; every field has a default.
///
/// ```swift
/// let transport = CurlTransport(configuration: .init(totalTimeout: .seconds(5), logger: .init { print($0) }))
/// ```
public struct CurlTransportConfiguration: Sendable {
    /// How long to wait for the TCP (and TLS) connection.
    public var connectTimeout: Duration
    /// How long the whole request may take, unless the request sets its own timeout.
    public var totalTimeout: Duration
    /// Whether to follow 3xx redirects; off by default so callers see what the server said.
    public var followRedirects: Bool
    /// The most redirects followed when ``followRedirects`` is on.
    public var maxRedirects: Int
    /// The largest decoded body accepted; a larger one fails with ``HTTPClientError/Kind/tooLarge``.
    public var maxResponseSize: Int
    /// Whether to ask for `gzip, deflate` and hand back the decoded body.
    public var decompress: Bool
    /// The most connections kept open to one host (0 for no limit).
    public var maxConnectionsPerHost: Int
    /// The most idle connections kept in the cache for reuse.
    public var maxCachedConnections: Int
    /// The `User-Agent` sent when the request has none.
    public var userAgent: String
    /// Receives each request as a curl command and each response as a short summary; nil
    /// (the default) logs nothing.
    public var logger: HTTPClientLogger?

    /// Creates a configuration.
    public init(
        connectTimeout: Duration = .seconds(10),
        totalTimeout: Duration = .seconds(30),
        followRedirects: Bool = false,
        maxRedirects: Int = 5,
        maxResponseSize: Int = 64 << 20,
        decompress: Bool = true,
        maxConnectionsPerHost: Int = 0,
        maxCachedConnections: Int = 32,
        userAgent: String = "petkit-httpclient/1",
        logger: HTTPClientLogger? = nil
    ) {
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.followRedirects = followRedirects
        self.maxRedirects = maxRedirects
        self.maxResponseSize = maxResponseSize
        self.decompress = decompress
        self.maxConnectionsPerHost = maxConnectionsPerHost
        self.maxCachedConnections = maxCachedConnections
        self.userAgent = userAgent
        self.logger = logger
    }
}

extension Duration {
    /// The duration in whole milliseconds, at least 1 for a positive duration, clamped to `Int`.
    var wholeMilliseconds: Int {
        let (seconds, attoseconds) = components
        if seconds >= Int64(Int.max / 1000) { return Int.max }
        if seconds < 0 { return 0 }
        let millis = Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
        return millis == 0 && attoseconds > 0 ? 1 : millis
    }
}
