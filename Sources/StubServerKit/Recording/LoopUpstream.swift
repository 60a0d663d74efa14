import HTTPClient
import HTTPServerKit

/// One event loop's upstream client for proxy stubs: a ``CurlSocketDriver`` whose sockets and
/// timer live in the loop's poller (an ``HTTPLoopExtension``), so a proxied request is
/// registered, progressed and completed on the loop's thread, with no hop.
///
/// Made on first use by the loop's handler (``HTTPEventLoop/loopExtension(_:)``) and used
/// only on that thread. Bounded: at most ``UpstreamSettings/maxTransfersPerLoop`` transfers
/// under way, each within its timeout and the response size limit.
final class LoopUpstream: HTTPLoopExtension, CurlSocketHost {
    private let loop: HTTPEventLoop
    private let settings: UpstreamSettings
    private var driver: CurlSocketDriver?
    private(set) var deadline: UInt64?

    init(loop: HTTPEventLoop, settings: UpstreamSettings) {
        self.loop = loop
        self.settings = settings
        driver = CurlSocketDriver(configuration: Self.configuration(settings), host: self)
    }

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
    var hasRoom: Bool { (driver?.transfersInFlight ?? 0) < settings.maxTransfersPerLoop }

    /// How many transfers are under way on this loop.
    var transfersInFlight: Int { driver?.transfersInFlight ?? 0 }

    /// Starts a transfer; `completion` runs once, on this loop's thread.
    func send(
        _ request: HTTPClientRequest,
        completion: @escaping @Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void
    ) {
        guard let driver else {
            completion(
                .failure(HTTPClientError(kind: .other, url: request.url, message: "libcurl could not be initialised")))
            return
        }
        driver.send(request, completion: completion)
    }

    // MARK: CurlSocketHost

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
        deadline = milliseconds.map { loop.currentTime &+ UInt64(max(0, $0)) &* 1_000_000 }
    }

    // MARK: HTTPLoopExtension

    func descriptorReady(_ descriptor: Int32, readable: Bool, writable: Bool, failed: Bool) {
        driver?.socketReady(descriptor, readable: readable, writable: writable, failed: failed)
    }

    func deadlineReached() {
        // libcurl sets the next timeout, if any, from inside the call.
        deadline = nil
        driver?.timeoutReached()
    }

    func loopStopped() {
        deadline = nil
        driver?.shutDown()
        driver = nil
    }
}
