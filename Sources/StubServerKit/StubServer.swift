import AdminAPI
import HTTPHandlerKit
import HTTPServerKit
import MockEngine
import Platform
import StubFormat

/// A WireMock-compatible stub server with broken variants, in process: serve a stub folder
/// or mappings built in Swift on a free port, point the app under test at ``baseURL``, and
/// steer it through ``admin``.
///
/// ```swift
/// let server = try StubServer(stubsDirectory: "Stubs")          // port 0: a free port
/// try server.start()
/// defer { server.stop() }
/// let client = EndpointClient(baseURL: server.baseURL + "/api", transport: URLSessionTransport())
/// try server.admin.setVariant("missing:name")                   // every answer loses name
/// ```
///
/// It is also the handler its HTTP server runs: ``reply(to:)`` answers a request as a value,
/// so tests of stubs and of the admin API need no socket.
public final class StubServer: HTTPHandler {
    /// The version reported by `/__admin/version` and `/__admin/health`: petkit's, the one
    /// `petmock --version` prints.
    public static let version = StubHandler.version

    /// The configuration it was created with.
    public let configuration: StubServerConfiguration
    /// The stub folder, when serving one.
    public var stubsDirectory: String? { handler.stubsDirectory }
    /// The administration interface (the same one `/__admin` serves).
    public var admin: Admin { handler.admin }
    /// The problems found when loading (bad files are left out, good ones serve).
    public var loadProblems: [StubProblem] { handler.loadProblems }

    /// The engine as a handler, which the HTTP server runs.
    public let handler: StubHandler
    var engine: StubEngine { handler.engine }
    /// The plain server (nil when HTTPS alone is served) and the HTTPS one (nil when none is):
    /// the same handler on both. `primary` takes the signals; a signal that stops it stops both.
    private let http: HTTPServer?
    private let https: HTTPServer?
    private let primary: HTTPServer
    private let hub: EventHub
    private let watcher = Locked<(any FileWatcher)?>(nil)

    /// Loads a stub folder (`mappings/`, `__files/`); problems are in ``loadProblems``, and
    /// with `strict` any problem is thrown instead.
    public convenience init(
        stubsDirectory: String, configuration: StubServerConfiguration = StubServerConfiguration()
    ) throws(StubServerError) {
        try self.init(stubsDirectory: stubsDirectory, mappings: [], configuration: configuration)
    }

    /// Serves mappings built in Swift; an invalid one is thrown.
    public convenience init(
        mappings: [StubMapping], configuration: StubServerConfiguration = StubServerConfiguration()
    ) throws(StubServerError) {
        try self.init(stubsDirectory: nil, mappings: mappings, configuration: configuration)
    }

    /// Serves a stub folder (if given) plus mappings built in Swift.
    public init(
        stubsDirectory: String?, mappings: [StubMapping], configuration: StubServerConfiguration
    ) throws(StubServerError) {
        self.configuration = configuration
        let hub = EventHub()
        self.hub = hub
        let hook = ShutdownHook()
        do {
            handler = try StubHandler(
                stubsDirectory: stubsDirectory, mappings: mappings, configuration: configuration.handlerConfiguration,
                upstream: .server(configuration.upstream), publish: { hub.publish($0) }, shutdown: { hook.run() })
        } catch {
            throw .setup(error)
        }
        let handler = self.handler
        let secure = configuration.httpsConfiguration.map { HTTPServer(configuration: $0, handler: handler) }
        if let secure, !configuration.servesPlainHTTP {
            http = nil
            primary = secure
        } else {
            let plain = HTTPServer(configuration: configuration.httpConfiguration, handler: handler)
            http = plain
            primary = plain
        }
        https = secure
        hook.set { [weak self] in self?.shutdown() }
    }

    /// Starts listening (and watching, with `watch`); returns once requests are accepted.
    public func start() throws(StubServerError) {
        if https != nil {
            do {
                _ = try configuration.certificateAuthority.serverTLS()
            } catch {
                throw .server(.tls(error))
            }
        }
        do {
            try http?.start()
            try https?.start()
        } catch {
            http?.stop()
            throw .server(error)
        }
        guard configuration.watch, let loader = engine.store.loader else { return }
        do {
            let created = try configuration.watcher.makeWatcher(
                directories: [loader.mappingsDirectory, loader.filesDirectory])
            try created.start { [weak self] paths in self?.filesChanged(paths) }
            watcher.withLock { $0 = created }
        } catch {
            stop()
            throw .watch(error)
        }
    }

    /// The reply to one request, stub or `/__admin`, exactly as the server gives it (journal,
    /// scenarios and recording included); proxied requests are deferred replies.
    public func reply(to request: HTTPServerRequest) -> HTTPReply {
        handler.reply(to: request)
    }

    /// The bound port of plain HTTP (after ``start()``), or of HTTPS when it is served alone.
    public var port: Int { primary.port }

    /// The bound HTTPS port (after ``start()``), or nil when HTTPS is not served.
    public var httpsPort: Int? { https?.port }

    /// `http://HOST:PORT`, to give the app under test (``httpsBaseURL`` when HTTPS is served alone).
    public var baseURL: String {
        http == nil ? httpsBaseURL ?? "" : url(scheme: "http", port: port)
    }

    /// `https://localhost:PORT` (the name the certificate is for), or nil when HTTPS is not served.
    public var httpsBaseURL: String? {
        guard let httpsPort else { return nil }
        let host = configuration.host
        let loopback = host == "127.0.0.1" || host == "::1" || host == "0.0.0.0" || host == "::" || host == "localhost"
        return loopback ? "https://localhost:\(httpsPort)" : url(scheme: "https", port: httpsPort)
    }

    private func url(scheme: String, port: Int) -> String {
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return "\(scheme)://\(host == "0.0.0.0" ? "127.0.0.1" : host):\(port)"
    }

    /// Begins a graceful shutdown and returns at once.
    public func shutdown() {
        watcher.withLock { watcher in
            watcher?.stop()
            watcher = nil
        }
        http?.shutdown()
        https?.shutdown()
        hub.finish()
    }

    /// Shuts down and waits until stopped.
    public func stop() {
        shutdown()
        waitUntilStopped()
    }

    /// Blocks until the server has stopped (both ports, when it serves two).
    public func waitUntilStopped() {
        primary.waitUntilStopped()
        if let https, https !== primary {
            https.shutdown()
            https.waitUntilStopped()
        }
    }

    /// Suspends until the server has stopped (both ports, when it serves two).
    public func stopped() async {
        await primary.stopped()
        if let https, https !== primary {
            https.shutdown()
            await https.stopped()
        }
    }

    /// Makes SIGINT and SIGTERM shut the server down gracefully (for command-line use); with
    /// two ports, the signal stops the first and ``stopped()`` or ``waitUntilStopped()`` the other.
    public func shutdownOnSignals() {
        primary.shutdownOnSignals()
    }

    /// A stream of what the server does on its own (reloads), from now until it stops.
    public func events() -> AsyncStream<StubServerEvent> {
        hub.subscribe()
    }

    /// Reloads after the watcher saw changes. A changed mapping file is read again alone, and
    /// the admin changes to its mappings that were kept in memory are dropped (the file has
    /// the last word); a folder in `mappings/` that came or went, the mapping files in it; a
    /// body file, every mapping file, admin changes kept. Other files in `mappings/` (the
    /// temporary files of editors and `sed -i`) change nothing.
    func filesChanged(_ paths: [String]) {
        guard let loader = engine.store.loader else { return }
        let store = engine.store
        let filesPrefix = loader.filesDirectory + "/"
        var reloaded: Set<String> = []
        var events: [StubServerEvent] = []
        func reload(_ files: [String], keepingOverrides: Bool = false) {
            for file in files where reloaded.insert(file).inserted {
                if let event = store.reloadFile(file, keepingOverrides: keepingOverrides) { events.append(event) }
            }
        }
        var bodiesChanged = false
        for path in paths {
            if path == loader.filesDirectory || path.hasPrefix(filesPrefix) {
                bodiesChanged = true
            } else if StubFolder.isMappingFile(path) {
                reload([path])
            } else if FileSystem.kind(of: path) != .file {
                reload(store.mappingFiles(under: path))
            }
        }
        if bodiesChanged { reload(store.mappingFiles(), keepingOverrides: true) }
        admin.problemLog.record(events)
        for event in events { hub.publish(event) }
    }
}

/// Why a stub server could not be created or started.
public enum StubServerError: Error, Sendable, CustomStringConvertible {
    /// The engine could not be set up: its stubs (or, strictly, their problems), its variant
    /// or its upstream; the error a `StubSession` and a `StubHandler` throw for the same.
    case setup(StubSetupError)
    /// The HTTP server could not start.
    case server(HTTPServerError)
    /// Watching the stub folder could not start.
    case watch(FileWatcherError)

    public var description: String {
        switch self {
        case .setup(let error): "\(error)"
        case .server(let error): "\(error)"
        case .watch(let error): "Cannot watch the stubs: \(error)"
        }
    }
}

/// The admin API's way to stop the server, set once the server exists.
private final class ShutdownHook: Sendable {
    private let action = Locked<(@Sendable () -> Void)?>(nil)

    func set(_ action: @escaping @Sendable () -> Void) {
        self.action.withLock { $0 = action }
    }

    func run() {
        action.withLock { $0 }?()
    }
}

/// Hands events to every subscriber's stream.
private final class EventHub: Sendable {
    private struct State {
        var next = 0
        var continuations: [Int: AsyncStream<StubServerEvent>.Continuation] = [:]
        var finished = false
    }

    private let state = Locked(State())

    func subscribe() -> AsyncStream<StubServerEvent> {
        let (stream, continuation) = AsyncStream<StubServerEvent>.makeStream()
        let finished = state.withLock { state -> Bool in
            guard !state.finished else { return true }
            let key = state.next
            state.next += 1
            state.continuations[key] = continuation
            continuation.onTermination = { [weak self] _ in
                self?.state.withLock { _ = $0.continuations.removeValue(forKey: key) }
            }
            return false
        }
        if finished { continuation.finish() }
        return stream
    }

    func publish(_ event: StubServerEvent) {
        let continuations = state.withLock { Array($0.continuations.values) }
        for continuation in continuations { continuation.yield(event) }
    }

    func finish() {
        let continuations = state.withLock { state in
            state.finished = true
            defer { state.continuations = [:] }
            return Array(state.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }
}
