import HTTPClient
import HTTPCore
import HTTPServerKit
import MockEngine
import Platform

/// One event loop's upstream clients for proxy stubs, whose sockets and timers live in the
/// loop's poller (an ``HTTPLoopExtension``), so a proxied request is registered, progressed and
/// completed on the loop's thread, with no hop: a ``LoopHTTPClient`` for plain `http://`
/// upstreams at a numeric address (unless ``UpstreamSettings/nativeClient`` is off), a
/// ``CurlSocketDriver`` (libcurl) for every other URL.
///
/// Made on first use by the loop's handler (``HTTPEventLoop/loopExtension(_:)``) and used
/// only on that thread. Bounded: at most ``UpstreamSettings/maxTransfersPerLoop`` transfers
/// under way, each within its timeout and the response size limit.
final class LoopUpstream: HTTPLoopExtension, LoopSocketHost {
    private let loop: HTTPEventLoop
    private let settings: UpstreamSettings
    private var driver: CurlSocketDriver?
    private var native: LoopHTTPClient?
    private var stopped = false
    /// When libcurl wants its timer.
    private var curlDeadline: UInt64?
    /// The target of the last request routed to petmock's own client.
    private var lastTarget: NativeHTTPTarget?

    init(loop: HTTPEventLoop, settings: UpstreamSettings) {
        self.loop = loop
        self.settings = settings
    }

    var deadline: UInt64? {
        switch (curlDeadline, native?.deadline) {
        case (let curl?, let own?): min(curl, own)
        case (let curl, let own): curl ?? own
        }
    }

    /// The libcurl driver, made on first use.
    private func curl() -> CurlSocketDriver? {
        if driver == nil, !stopped {
            driver = CurlSocketDriver(configuration: Self.configuration(settings), host: self)
        }
        return driver
    }

    /// The client of plain-HTTP upstreams, made on first use.
    private func nativeClient() -> LoopHTTPClient {
        if let native { return native }
        let made = LoopHTTPClient(configuration: Self.configuration(settings), host: self) { [loop] in loop.currentTime
        }
        if stopped { made.shutDown() }
        native = made
        return made
    }

    /// Idle upstream connections kept for reuse by the shared thread's transport (libcurl's
    /// default cache of a few would close and reopen one per request under a load of more
    /// clients than that).
    static let cachedConnections = 256

    /// The client settings of every proxy transfer (the shared thread's too): the server
    /// frames and compresses its own answers, the upstream may send gzip or deflate (which
    /// arrive decoded), and redirects are the caller's to follow.
    static func configuration(_ settings: UpstreamSettings, cachedConnections: Int? = nil) -> CurlTransportConfiguration
    {
        CurlTransportConfiguration(
            connectTimeout: .seconds(10), totalTimeout: .seconds(30), followRedirects: false,
            maxResponseSize: settings.maxResponseSize,
            maxCachedConnections: cachedConnections ?? settings.cachedConnectionsPerLoop, userAgent: "petmock")
    }

    /// Whether another transfer may start now.
    var hasRoom: Bool { transfersInFlight < settings.maxTransfersPerLoop }

    /// How many transfers are under way on this loop.
    var transfersInFlight: Int { (driver?.transfersInFlight ?? 0) + (native?.transfersInFlight ?? 0) }

    /// Which client a request goes to: petmock's own (with the target read from its URL), or
    /// libcurl.
    enum Route {
        case native(NativeHTTPTarget)
        case curl
    }

    /// The client for `request`: petmock's own for a plain `http://` URL at a numeric address
    /// (unless switched off, or a proxy is set in the environment), else libcurl.
    func route(for request: HTTPClientRequest) -> Route {
        guard settings.nativeClient, !Self.proxyFromEnvironment else { return .curl }
        // Most requests go where the last one went: its address is kept, not parsed again.
        if let target = lastTarget?.sameAuthority(request.url) { return .native(target) }
        guard let target = NativeHTTPTarget(url: request.url) else { return .curl }
        lastTarget = target
        return .native(target)
    }

    /// Starts a transfer on the client `route` names; `completion` runs once, on this loop's
    /// thread.
    func send(
        _ request: HTTPClientRequest, via route: Route,
        completion: @escaping @Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void
    ) {
        if case .native(let target) = route {
            nativeClient().send(request, to: target, completion: completion)
            return
        }
        guard let driver = curl() else {
            completion(
                .failure(HTTPClientError(kind: .other, url: request.url, message: CurlGlobal.failure)))
            return
        }
        driver.send(request, completion: completion)
    }

    /// Whether the environment names a proxy for libcurl (`http_proxy`, `HTTP_PROXY`,
    /// `all_proxy`, `ALL_PROXY`): then every request goes through libcurl, which honours it.
    static let proxyFromEnvironment: Bool = {
        ["http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"].contains {
            !(PlatformEnvironment.value($0) ?? "").isEmpty
        }
    }()

    // MARK: LoopSocketHost

    func watch(_ descriptor: Int32, read: Bool, write: Bool) {
        // A descriptor the poller refuses is never reported: its transfer ends at its timeout.
        try? loop.watch(descriptor, read: read, write: write, for: self)
    }

    func unwatch(_ descriptor: Int32) {
        loop.unwatch(descriptor)
    }

    func park(_ descriptor: Int32) {
        loop.park(descriptor)
    }

    func scheduleTimeout(milliseconds: Int?) {
        curlDeadline = milliseconds.map { loop.currentTime &+ UInt64(max(0, $0)) &* 1_000_000 }
    }

    // MARK: HTTPLoopExtension

    func descriptorReady(_ descriptor: Int32, readable: Bool, writable: Bool, failed: Bool) {
        if let native, native.owns(descriptor) {
            native.socketReady(descriptor, readable: readable, writable: writable, failed: failed)
        } else {
            driver?.socketReady(descriptor, readable: readable, writable: writable, failed: failed)
        }
    }

    func deadlineReached() {
        let now = loop.currentTime
        if let due = curlDeadline, due <= now {
            // libcurl sets the next timeout, if any, from inside the call.
            curlDeadline = nil
            driver?.timeoutReached()
        }
        if let native, let due = native.deadline, due <= now { native.deadlineReached() }
    }

    func beforeWait() {
        native?.flushQueuedWrites()
    }

    func loopStopped() {
        stopped = true
        curlDeadline = nil
        driver?.shutDown()
        driver = nil
        native?.shutDown()
    }
}
