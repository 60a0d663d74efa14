import AdminAPI
import HTTPHandlerKit
import HTTPServerKit
import MockEngine
import Platform
import StubFormat
import StubServerCore

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
    public var handler: StubHandler { host.handler }
    var engine: StubEngine { handler.engine }
    /// The engine on its servers: plain HTTP first (when served), then HTTPS (when served).
    private let host: StubServerHost
    private let watcher = Locked<(any FileWatcher)?>(nil)
    private let watchedMappings = Locked<WatchedMappings?>(nil)

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
        var servers: [HTTPServerConfiguration] = []
        if configuration.servesPlainHTTP || configuration.httpsPort == nil {
            servers.append(configuration.httpConfiguration)
        }
        if let secure = configuration.httpsConfiguration { servers.append(secure) }
        do {
            host = try StubServerHost(
                stubsDirectory: stubsDirectory, mappings: mappings, configuration: configuration.handlerConfiguration,
                upstream: .server(configuration.upstream), servers: servers)
        } catch {
            throw .setup(error)
        }
        host.onShutdownRequest { [weak self] in self?.shutdown() }
    }

    /// Whether plain HTTP is served (on ``port``).
    private var servesPlainHTTP: Bool { configuration.servesPlainHTTP || configuration.httpsPort == nil }

    /// Starts listening (and watching, with `watch`); returns once requests are accepted.
    public func start() throws(StubServerError) {
        if configuration.httpsPort != nil {
            do {
                _ = try configuration.certificateAuthority.serverTLS()
            } catch {
                throw .server(.tls(error))
            }
        }
        do {
            try host.start()
        } catch {
            throw .server(error)
        }
        let loader = engine.store.loader
        let source = watchedMappings.withLock { $0 }
        guard configuration.watch, loader != nil || source != nil else { return }
        do {
            let created = try configuration.watcher.makeWatcher(
                directories: loader.map { [$0.mappingsDirectory, $0.filesDirectory] } ?? [],
                files: source?.files ?? [])
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
    public var port: Int { host.port }

    /// The bound HTTPS port (after ``start()``), or nil when HTTPS is not served.
    public var httpsPort: Int? {
        configuration.httpsPort == nil ? nil : host.servers[host.servers.count - 1].port
    }

    /// `http://HOST:PORT`, to give the app under test (``httpsBaseURL`` when HTTPS is served alone).
    public var baseURL: String {
        servesPlainHTTP ? StubServerHost.url(scheme: "http", host: configuration.host, port: port) : httpsBaseURL ?? ""
    }

    /// `https://localhost:PORT` (the name the certificate is for), or nil when HTTPS is not served.
    public var httpsBaseURL: String? {
        guard let httpsPort else { return nil }
        let host = configuration.host
        let loopback = host == "127.0.0.1" || host == "::1" || host == "0.0.0.0" || host == "::" || host == "localhost"
        return loopback
            ? "https://localhost:\(httpsPort)" : StubServerHost.url(scheme: "https", host: host, port: httpsPort)
    }

    /// Begins a graceful shutdown and returns at once.
    public func shutdown() {
        watcher.withLock { watcher in
            watcher?.stop()
            watcher = nil
        }
        host.shutdown()
    }

    /// Shuts down and waits until stopped.
    public func stop() {
        shutdown()
        waitUntilStopped()
    }

    /// Blocks until the server has stopped (both ports, when it serves two).
    public func waitUntilStopped() {
        host.waitUntilStopped()
    }

    /// Suspends until the server has stopped (both ports, when it serves two).
    public func stopped() async {
        await host.stopped()
    }

    /// Makes SIGINT and SIGTERM shut the server down gracefully (for command-line use); with
    /// two ports, the signal stops the first and ``stopped()`` or ``waitUntilStopped()`` the other.
    public func shutdownOnSignals() {
        host.shutdownOnSignals()
    }

    /// A stream of what the server does on its own (reloads), from now until it stops.
    public func events() -> AsyncStream<StubServerEvent> {
        host.events()
    }

    /// Reloads after the watcher saw changes. A changed mapping file is read again alone, and
    /// the admin changes to its mappings that were kept in memory are dropped (the file has
    /// the last word); a folder in `mappings/` that came or went, the mapping files in it; a
    /// body file, every mapping file, admin changes kept. Other files in `mappings/` (the
    /// temporary files of editors and `sed -i`) change nothing.
    /// A changed file of the ``WatchedMappings`` reads them all again.
    func filesChanged(_ paths: [String]) {
        var paths = paths
        var events: [StubServerEvent] = []
        if let source = watchedMappings.withLock({ $0 }), paths.contains(where: source.files.contains) {
            paths.removeAll(where: source.files.contains)
            events.append(reload(source))
        }
        if let loader = engine.store.loader { events += reloadFiles(paths, loader: loader) }
        admin.problemLog.record(events)
        for event in events { host.publish(event) }
    }

    /// Re-reads mapping sources outside the stub folder when their files change (with `watch`;
    /// call before ``start()``): the mappings built in Swift are replaced by what `source` reads.
    package func watchMappings(_ source: WatchedMappings) {
        watchedMappings.withLock { $0 = source }
    }

    private func reload(_ source: WatchedMappings) -> StubServerEvent {
        let file = source.files.first ?? ""
        switch source.read() {
        case .failure(let problem):
            return .reloadFailed(file: file, problems: [problem], keptPrevious: true)
        case .success(let read):
            let (serving, problems) = engine.store.replaceCodeMappings(read.mappings)
            return .reloaded(file: file, mappings: serving, problems: read.problems + problems)
        }
    }

    private func reloadFiles(_ paths: [String], loader: StubLoader) -> [StubServerEvent] {
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
        return events
    }
}

/// Mappings built from files outside the stub folder (a Postman collection and its
/// environment), which `watch` reads again when one of the files changes.
package struct WatchedMappings: Sendable {
    /// The files read; the first names the reload in events.
    package var files: [String]
    /// Reads the files: the mappings and their warnings, or the problem that stops them being
    /// read (the mappings read last keep serving).
    package var read: @Sendable () -> Result<(mappings: [StubMapping], problems: [StubProblem]), StubProblem>

    /// Mappings read by `read` from `files`.
    package init(
        files: [String],
        read: @escaping @Sendable () -> Result<(mappings: [StubMapping], problems: [StubProblem]), StubProblem>
    ) {
        self.files = files
        self.read = read
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
