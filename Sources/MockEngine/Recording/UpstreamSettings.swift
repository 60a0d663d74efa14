/// How proxy stubs (`proxyBaseUrl`) reach their upstream, and the bounds on that work.
///
/// By default each event loop drives its own upstream transfers: libcurl's multi-socket API
/// in the loop's poller, one multi handle, connection cache and easy-handle pool per loop, so
/// a proxied request is sent, read and answered on the client connection's own thread. With
/// ``onEventLoop`` off they go through the shared libcurl I/O thread, as recording and
/// `--proxy-unmatched` do.
public struct UpstreamSettings: Sendable, Hashable {
    /// Whether proxy stubs' transfers run on the event loops (the default).
    public var onEventLoop: Bool
    /// The most upstream transfers under way on one event loop; a proxied request beyond them
    /// is answered 503 at once (`Petmock-Proxy-Error: overloaded`).
    public var maxTransfersPerLoop: Int
    /// Idle upstream connections each loop keeps for reuse (the shared thread keeps 256).
    public var cachedConnectionsPerLoop: Int
    /// The largest upstream response body passed on; a larger one is a 502 and is not kept.
    public var maxResponseSize: Int
    /// Whether, on the event loops, a plain `http://` upstream at a numeric address (such as
    /// `http://127.0.0.1:8081`) is reached with petmock's own HTTP/1.1 client (the default)
    /// rather than libcurl, which takes every other URL (`https`, host names) and every URL
    /// when the environment names a proxy (`http_proxy`, `all_proxy`).
    public var nativeClient: Bool
    /// How long one webhook call may take, connecting included (then it is recorded as
    /// timed out).
    public var webhookTimeout: Duration
    /// The most webhook calls waiting for their delay or under way at once, server-wide; a
    /// call beyond them is not sent, and is recorded as refused.
    public var maxWebhooksInFlight: Int

    /// Creates settings.
    public init(
        onEventLoop: Bool = true, maxTransfersPerLoop: Int = 256, cachedConnectionsPerLoop: Int = 128,
        maxResponseSize: Int = 64 << 20, nativeClient: Bool = true, webhookTimeout: Duration = .seconds(10),
        maxWebhooksInFlight: Int = 64
    ) {
        self.onEventLoop = onEventLoop
        self.maxTransfersPerLoop = max(1, maxTransfersPerLoop)
        self.cachedConnectionsPerLoop = max(1, cachedConnectionsPerLoop)
        self.maxResponseSize = max(0, maxResponseSize)
        self.nativeClient = nativeClient
        self.webhookTimeout = webhookTimeout > .zero ? webhookTimeout : .seconds(10)
        self.maxWebhooksInFlight = max(1, maxWebhooksInFlight)
    }
}
