import HTTPHandlerKit
import Platform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which readiness back end the event loops use: `.automatic` (the `PETKIT_POLLER`
/// environment variable, `epoll` or `poll`, else epoll on Linux and `poll(2)` elsewhere),
/// `.epoll` (Linux only) or `.poll` (portable, level-triggered, O(connections) per wait).
public typealias HTTPPollerKind = PollerKind

/// How an ``HTTPServer`` listens, what it accepts, and how long it waits.
///
/// ```swift
/// let configuration = HTTPServerConfiguration(port: 8080, idleTimeout: .seconds(30))
/// ```
public struct HTTPServerConfiguration: Sendable, Hashable {
    /// The address to listen on: an IPv4 or IPv6 literal, or a name to resolve.
    public var host: String
    /// The port to listen on; 0 picks a free one (read it from ``HTTPServer/port`` after start).
    public var port: Int
    /// How many event loops (threads) serve connections; each has its own listening socket.
    public var eventLoopCount: Int
    /// The request size limits (request line 414, headers 431, body 413).
    public var limits: HTTPParserLimits
    /// How long a client may take to send a complete request head before a 408 and close.
    public var headerTimeout: Duration
    /// How long a connection may sit without progress (keep-alive idle: close; a client not
    /// reading the response: close).
    public var idleTimeout: Duration
    /// How long a client may take to send a request's whole body once its head is in, however
    /// steadily it trickles, before a 408 and close. With ``headerTimeout`` it bounds the whole
    /// request.
    public var bodyTimeout: Duration
    /// The most connections open at once across all loops. At the limit (and at the process's
    /// descriptor limit) a new client takes the place of one of its loop's connections: the
    /// longest-idle one between requests (closed); when there is none, the connection in the
    /// middle of a request that has sent nothing for longest, if that is at least
    /// ``stalledRequestAge`` (answered 408 and closed); when there is none, the request body
    /// that has made the least recent progress, however recently (answered 503 and closed);
    /// when there is none either (every connection is being answered, or sending its head),
    /// the new client is answered 503 and closed. A connection whose request is being
    /// processed or answered is never closed to make room.
    public var maxConnections: Int
    /// How long a connection in the middle of a request must have sent nothing before it
    /// counts as stalled: a request head may be closed to make room at ``maxConnections`` only
    /// then, and a stalled head or body is answered 408 rather than 503.
    public var stalledRequestAge: Duration
    /// How long a graceful shutdown waits for in-flight responses before closing everything.
    public var shutdownGracePeriod: Duration
    /// The listen backlog of each listening socket.
    public var backlog: Int32
    /// The readiness back end of the event loops (see ``HTTPPollerKind``); `.automatic` by default.
    public var poller: HTTPPollerKind = .automatic
    /// Where the event loops read the time for timeouts, delays, timers and the `Date`
    /// header: ``TimeSource/system`` (Platform) by default; a test may pass a clock it moves by hand.
    public var clock: TimeSource = .system
    /// Serve HTTPS with these settings (set through TLSKit's `tls`, a certificate and key);
    /// nil (the default) serves plain HTTP.
    package var connectionSecurity: ConnectionSecurity?

    /// Creates a configuration; every argument has a default.
    public init(
        host: String = "127.0.0.1", port: Int = 0, eventLoopCount: Int? = nil,
        maxBodySize: Int = 8 * 1024 * 1024, maxRequestLineLength: Int = 8 * 1024, maxHeaderSize: Int = 64 * 1024,
        headerTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(60),
        bodyTimeout: Duration = .seconds(30), maxConnections: Int = 4096, stalledRequestAge: Duration = .seconds(2),
        shutdownGracePeriod: Duration = .seconds(5), backlog: Int32 = 1024
    ) {
        self.host = host
        self.port = port
        self.eventLoopCount = max(1, eventLoopCount ?? HTTPServerConfiguration.processorCount)
        self.limits = HTTPParserLimits(
            maxRequestLineLength: maxRequestLineLength, maxHeaderSize: maxHeaderSize, maxBodySize: maxBodySize)
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.bodyTimeout = bodyTimeout
        self.maxConnections = maxConnections
        self.stalledRequestAge = stalledRequestAge
        self.shutdownGracePeriod = shutdownGracePeriod
        self.backlog = backlog
    }

    /// The number of online processors.
    public static var processorCount: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// The largest body accepted, in bytes.
    public var maxBodySize: Int {
        get { limits.maxBodySize }
        set { limits.maxBodySize = newValue }
    }
}
