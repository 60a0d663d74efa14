import HTTPCore
import Platform

/// A small HTTP/1.1 client for plain `http://` upstreams at a numeric address, driven by an
/// event loop (a ``LoopSocketHost``) like ``CurlSocketDriver``: a request is written, read and
/// completed on the loop's thread, over kept-alive connections, with no thread, hop or
/// library in between. What it cannot do (TLS, name lookup, proxies, redirects) stays with
/// libcurl: see ``NativeHTTPTarget``.
///
/// It sends what the libcurl driver sends for the same request (`Host`, the request's fields,
/// `User-Agent` and `Accept: */*` unless given, `Accept-Encoding: gzip, deflate` when
/// decompressing, `Content-Length` with a body) and hands back the same response: every
/// field in order, the body decoded from gzip or deflate, the timings. Failures carry the
/// kind and the libcurl code of the same condition (52 for an empty reply, 56 for a reset,
/// 28 for a timeout), so callers tell them apart the same way whichever client ran.
///
/// Not thread-safe: every call, and every completion, happens on the host's thread. Bounds:
/// each transfer's total time and connect time, the response size (``HTTPResponseReader``),
/// and the idle connections kept (``CurlTransportConfiguration/maxCachedConnections``).
/// A request on a kept-alive connection that the upstream closed meanwhile is sent again
/// once on a new connection, when no byte of an answer came.
package final class LoopHTTPClient {
    /// The settings transfers are made with; redirects are not followed and connections per
    /// host are not limited, so those two must be off.
    package let configuration: CurlTransportConfiguration
    unowned let host: any LoopSocketHost
    let clock: () -> UInt64
    /// Every open connection by descriptor: those under way and those idle.
    var connections: [Int32: UpstreamConnection] = [:]
    /// Idle connections by ``NativeHTTPTarget/key``, the most recent last (a list object, so
    /// taking one changes no dictionary entry).
    var idle: [String: IdleConnections] = [:]
    var idleCount = 0
    /// How many transfers are under way.
    package internal(set) var transfersInFlight = 0
    /// When ``deadlineReached()`` is due, in the clock's nanoseconds; nil for never. It may be
    /// early (the transfer it was for has finished): then nothing times out.
    package internal(set) var deadline: UInt64?
    var stopped = false
    /// Connections whose request is ready to go, sent together by ``flushQueuedWrites()``.
    var queuedWrites: [UpstreamConnection] = []
    /// The connections ``flushQueuedWrites()`` is sending: swapped with ``queuedWrites``, so
    /// neither list is allocated again per batch.
    private var flushing: [UpstreamConnection] = []
    let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
    /// An idle connection older than this is closed rather than used (libcurl's default).
    static let maxIdleAge: UInt64 = 118_000_000_000

    /// A client on `host`, reading time from `clock` (monotonic nanoseconds, the host's own).
    package init(configuration: CurlTransportConfiguration, host: any LoopSocketHost, clock: @escaping () -> UInt64) {
        precondition(!configuration.followRedirects, "LoopHTTPClient does not follow redirects")
        precondition(configuration.maxConnectionsPerHost == 0, "LoopHTTPClient does not limit connections per host")
        self.configuration = configuration
        self.host = host
        self.clock = clock
    }

    deinit {
        shutDown()
        scratch.deallocate()
    }

    /// Whether `descriptor` is one of this client's connections (the host routes its reports).
    package func owns(_ descriptor: Int32) -> Bool { connections[descriptor] != nil }

    /// Sends `request` to `target` (read from the request's URL); `completion` is called
    /// exactly once, on the host's thread: later, or before this returns when the request
    /// cannot start.
    package func send(
        _ request: HTTPClientRequest, to target: NativeHTTPTarget,
        completion: @escaping @Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void
    ) {
        configuration.logger?.log(request: request, compressed: configuration.decompress)
        guard !stopped else {
            finish(request, .failure(.shutDownError(url: request.url)), completion)
            return
        }
        let bytes: [UInt8]
        do {
            bytes = try Self.requestBytes(request, target, configuration: configuration)
        } catch {
            finish(request, .failure(error), completion)
            return
        }
        let now = clock()
        let timeout = (request.timeout ?? configuration.totalTimeout).nanoseconds
        let transfer = UpstreamTransfer(
            request: request, target: target, bytes: bytes, completion: completion, started: now,
            deadline: Self.later(now, by: timeout))
        transfersInFlight += 1
        start(transfer)
    }

    /// The host reports a descriptor of this client ready.
    package func socketReady(_ descriptor: Int32, readable: Bool, writable: Bool, failed: Bool) {
        guard let connection = connections[descriptor] else { return }
        switch connection.phase {
        case .connecting where writable || failed: connected(connection)
        case .sending where writable: write(connection)
        case .sending where failed, .receiving where readable || failed: read(connection)
        case .idle: close(connection)  // the upstream closed it, or sent bytes nobody asked for
        default: break
        }
    }

    /// Sends the requests queued since the last call: the host calls it when it has handled
    /// what was ready and is about to wait, so the upstreams woken by them do not preempt the
    /// rest of its work.
    package func flushQueuedWrites() {
        guard !queuedWrites.isEmpty else { return }
        swap(&queuedWrites, &flushing)
        for connection in flushing where connections[connection.descriptor] === connection {
            write(connection)
        }
        flushing.removeAll(keepingCapacity: true)
    }

    /// ``deadline`` has passed: the transfers past theirs end as timed out.
    package func deadlineReached() {
        let now = clock()
        deadline = nil
        var expired: [UpstreamConnection] = []
        for connection in connections.values {
            guard let transfer = connection.transfer else { continue }
            let due = transfer.currentDeadline(configuration)
            if due <= now {
                expired.append(connection)
            } else {
                lowerDeadline(to: due)
            }
        }
        for connection in expired {
            guard let transfer = connection.transfer else { continue }
            let elapsed = (now &- transfer.started) / 1_000_000
            let message =
                connection.phase == .connecting
                ? "Connection timed out after \(elapsed) milliseconds"
                : "Operation timed out after \(elapsed) milliseconds with \(connection.reader.body.count) bytes received"
            fail(
                connection, HTTPClientError(kind: .timedOut, url: transfer.request.url, message: message, curlCode: 28))
        }
    }

    /// Fails every transfer under way as cancelled and closes every connection; later sends
    /// fail at once. Called by deinit, or by the host when its loop ends.
    package func shutDown() {
        guard !stopped else { return }
        stopped = true
        let open = Array(connections.values)
        for connection in open {
            let transfer = connection.transfer
            close(connection)
            if let transfer {
                transfersInFlight -= 1
                finish(transfer.request, .failure(.shutDownError(url: transfer.request.url)), transfer.completion)
            }
        }
        deadline = nil
    }

    /// `instant` plus `nanoseconds`, or never (`UInt64.max`) past the end of the clock.
    static func later(_ instant: UInt64, by nanoseconds: UInt64) -> UInt64 {
        let (sum, overflow) = instant.addingReportingOverflow(nanoseconds)
        return overflow ? .max : sum
    }

    func lowerDeadline(to due: UInt64) {
        deadline = min(deadline ?? .max, due)
    }

    func finish(
        _ request: HTTPClientRequest, _ outcome: Result<HTTPClientResponse, HTTPClientError>,
        _ completion: @Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void
    ) {
        if let logger = configuration.logger {
            switch outcome {
            case .success(let response): logger.log(response: response, for: request)
            case .failure(let error): logger.log(error: error, for: request)
            }
        }
        completion(outcome)
    }
}

/// The idle connections to one target, the most recent last.
final class IdleConnections {
    var list: [UpstreamConnection] = []
}

/// One request on its way: what to send, where, and who waits.
final class UpstreamTransfer {
    let request: HTTPClientRequest
    let target: NativeHTTPTarget
    let bytes: [UInt8]
    let completion: @Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void
    let started: UInt64
    let deadline: UInt64
    var connectStarted: UInt64?
    var connected: UInt64?
    var firstByte: UInt64?
    /// Whether it was sent again on a new connection (once at most).
    var retried = false

    init(
        request: HTTPClientRequest, target: NativeHTTPTarget, bytes: [UInt8],
        completion: @escaping @Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void, started: UInt64,
        deadline: UInt64
    ) {
        self.request = request
        self.target = target
        self.bytes = bytes
        self.completion = completion
        self.started = started
        self.deadline = deadline
    }

    /// The total deadline, or the connect deadline while connecting, whichever is first.
    func currentDeadline(_ configuration: CurlTransportConfiguration) -> UInt64 {
        guard let connectStarted, connected == nil else { return deadline }
        return min(deadline, LoopHTTPClient.later(connectStarted, by: configuration.connectTimeout.nanoseconds))
    }
}

/// One TCP connection to an upstream, and the transfer on it, if any.
final class UpstreamConnection {
    enum Phase { case connecting, sending, receiving, idle }

    let descriptor: Int32
    let key: String
    var phase: Phase
    var transfer: UpstreamTransfer?
    var written = 0
    var reader = HTTPResponseReader(method: .get, maxBodySize: 0)
    /// Whether it carried a response before the current transfer.
    var reused = false
    var idleSince: UInt64 = 0

    init(descriptor: Int32, key: String, phase: Phase) {
        self.descriptor = descriptor
        self.key = key
        self.phase = phase
    }
}
