import HTTPHandlerKit
import Platform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An HTTP/1.1 server on POSIX sockets: one event loop per core, each with its own
/// `SO_REUSEPORT` listening socket; handlers run on the loops.
///
/// ```swift
/// let server = HTTPServer(configuration: HTTPServerConfiguration(port: 8080)) { request in
///     .response(HTTPResponse(text: "hello \(request.path)"))
/// }
/// try server.start()              // returns once listening: server.port is bound
/// try server.shutdownOnSignals()  // SIGINT/SIGTERM: graceful shutdown
/// server.waitUntilStopped()
/// ```
///
/// A started server runs until ``shutdown()`` (or a forwarded signal): dropping the last
/// reference does not stop its threads.
package final class HTTPServer: Sendable {
    /// The configuration the server was created with.
    package let configuration: HTTPServerConfiguration
    /// The handler; tests can call it directly (a request in, a reply value out).
    package let handler: any HTTPHandler
    private let lifecycle: ServerLifecycle
    private let boundPort = Locked(0)

    /// Creates a server; nothing listens until ``start()``.
    package init(configuration: HTTPServerConfiguration = HTTPServerConfiguration(), handler: some HTTPHandler) {
        self.configuration = configuration
        self.handler = handler
        lifecycle = ServerLifecycle(maxConnections: configuration.maxConnections)
    }

    /// Creates a server whose handler is a closure.
    package convenience init(
        configuration: HTTPServerConfiguration = HTTPServerConfiguration(),
        handler: @escaping @Sendable (HTTPServerRequest) -> HTTPReply
    ) {
        self.init(configuration: configuration, handler: HTTPClosureHandler(handler))
    }

    /// The bound port: the configured one, or the one picked for port 0. 0 before ``start()``.
    package var port: Int { boundPort.withLock { $0 } }

    /// The event loops (empty before start and after stop).
    package var eventLoops: [HTTPEventLoop] { lifecycle.state.withLock { $0.loops } }

    /// Request bodies of up to `maxBodySize` (8 MiB) are single arrays that grow by doubling.
    /// With glibc's default, adaptive threshold the first such array is mapped and unmapped,
    /// but later ones stay in the event loop's arena once freed: after one large upload the
    /// process kept ~24 MB more RSS per loop for good. Blocks of 1 MiB and more are mapped
    /// instead, so memory goes back to the system when the request is done. Process-wide,
    /// set once, on the first start.
    private static let largeAllocationsMapped: Bool = MemorySettings.mapLargeAllocations(minimumBytes: 1 << 20)

    /// Binds, listens and starts the loops. Returns once the server accepts connections,
    /// which makes the return the readiness signal; ``port`` is then the bound port.
    package func start() throws(HTTPServerError) {
        _ = try launch(prepare: { nil })
    }

    /// Binds and listens, runs `prepare`, then starts the loops, and returns once the server
    /// accepts connections. While `prepare` runs (opening a database, say) the port is taken
    /// and ``port`` is bound, but nothing is accepted: a client that connects waits in the
    /// listen backlog and is answered once `prepare` is done, never by a half-ready server.
    /// When `prepare` throws, the listeners close, the server is back where it started, and
    /// its error is rethrown; an ``HTTPServerError`` is thrown when binding fails.
    package func start(beforeAccepting prepare: () throws -> Void) throws {
        let failure = try launch(prepare: {
            do {
                try prepare()
                return nil
            } catch {
                return error
            }
        })
        if let failure { throw failure }
    }

    /// The start: binding, `prepare` (whose error, if any, is returned after the listeners are
    /// closed), the loops.
    private func launch(prepare: () -> (any Error)?) throws(HTTPServerError) -> (any Error)? {
        _ = Self.largeAllocationsMapped
        try lifecycle.state.withLock { (state) throws(HTTPServerError) in
            guard state.phase == .idle else { throw HTTPServerError.alreadyStarted }
            state.phase = .starting
        }
        var listeners: [Int32] = []
        var loops: [HTTPEventLoop] = []
        do {
            let configuration = self.configuration
            // Before binding: a certificate that cannot be used leaves the port free.
            let tls = try configuration.connectionSecurity.map(Self.tlsContext)
            let address = try HTTPServerError.platform {
                () throws(PlatformError) in try Listener.resolve(host: configuration.host, port: configuration.port)
            }
            let first = try HTTPServerError.platform { () throws(PlatformError) in
                try Listener.open(address, host: configuration.host, backlog: configuration.backlog, reusePort: .open)
            }
            listeners.append(first.descriptor)
            let bound = Listener.withPort(address, first.port)
            for _ in 1..<configuration.eventLoopCount {
                let next = try HTTPServerError.platform { () throws(PlatformError) in
                    try Listener.open(bound, host: configuration.host, backlog: configuration.backlog, reusePort: .join)
                }
                listeners.append(next.descriptor)
            }
            boundPort.withLock { $0 = first.port }
            if let failure = prepare() {
                for listener in listeners { Descriptor.close(listener) }
                boundPort.withLock { $0 = 0 }
                lifecycle.state.withLock { $0.phase = .idle }
                lifecycle.shutdown()
                return failure
            }
            for (index, listener) in listeners.enumerated() {
                loops.append(
                    try HTTPEventLoop(
                        index: index, listener: listener, configuration: configuration, handler: handler,
                        lifecycle: lifecycle, tls: tls))
            }
            let created = loops
            lifecycle.state.withLock { $0.loops = created }
            for loop in loops { try loop.startThread() }
        } catch {
            if loops.isEmpty {
                for listener in listeners { Descriptor.close(listener) }
            }
            lifecycle.state.withLock { $0.phase = .idle }
            lifecycle.shutdown()
            throw error
        }
        let expected = loops.count
        lifecycle.state.wait { $0.startedLoops >= expected }
        let signals: [Int32] = lifecycle.state.withLock { state in
            if state.phase == .starting { state.phase = .running }
            defer { state.pendingSignals = [] }
            return state.pendingSignals
        }
        if !signals.isEmpty { installSignals(signals) }
        return nil
    }

    /// The one TLS context of an HTTPS server, shared by its loops.
    private static func tlsContext(
        _ settings: ConnectionSecurity
    ) throws(HTTPServerError) -> any ConnectionLayerFactory {
        do {
            return try settings.makeFactory()
        } catch {
            throw HTTPServerError.tls(error)
        }
    }

    /// Begins a graceful shutdown and returns at once: listeners close, idle connections
    /// close, in-flight requests get their answers (with `Connection: close`) until the
    /// grace period ends, then everything closes. Safe from any thread, handlers included.
    package func shutdown() {
        lifecycle.shutdown()
    }

    /// Blocks the calling thread until every loop has stopped (returns at once if the
    /// server never started). Do not call it on an event loop.
    package func waitUntilStopped() {
        lifecycle.state.wait { $0.phase == .stopped || $0.phase == .idle }
    }

    /// Suspends until every loop has stopped.
    package func stopped() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = lifecycle.state.withLock { state in
                if state.phase == .stopped || state.phase == .idle { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Shuts down gracefully and waits until stopped.
    package func stop() {
        shutdown()
        waitUntilStopped()
    }

    /// Makes these signals (by default SIGINT and SIGTERM) start a graceful shutdown, for
    /// command-line tools; the default dispositions come back when the server stops. Call
    /// before or after ``start()``. The handler only writes to a descriptor the first loop
    /// watches, so it is async-signal-safe.
    package func shutdownOnSignals(_ signals: [Int32] = [SIGINT, SIGTERM]) {
        let running: Bool = lifecycle.state.withLock { state in
            guard state.phase == .running else {
                state.pendingSignals += signals
                return false
            }
            return true
        }
        if running { installSignals(signals) }
    }

    private func installSignals(_ signals: [Int32]) {
        guard let first = eventLoops.first else { return }
        lifecycle.forwardSignals(signals, to: first)
    }
}
