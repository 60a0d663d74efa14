import AdminAPI
import Foundation
import HTTPServerKit
import MockEngine
import OpenAPIMock
import StubFormat
import StubServerCore
import URLSessionStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// petmock's engine on a loopback port, for an app that runs in another process: the app under
/// an XCUITest, whose requests in-process URLSession stubs cannot reach. Stubs, variants,
/// scenarios, templating, faults, the journal and `/__admin` answer exactly as `petmock serve`'s,
/// over plain HTTP on `127.0.0.1`. Upstream calls (proxy stubs, `proxyUnmatched`, webhooks,
/// OpenAPI callbacks) go through a URLSession: nothing here links libcurl or OpenSSL, so an
/// iOS test target can link it (docs/loopback-stubs.md).
///
/// Each server has its own engine and port: tests that each start one run in parallel without
/// seeing each other's stubs, variants or requests.
///
/// ```swift
/// let server = try LoopbackStubServer(bundle: .module, variant: "missing:name")
/// try server.start()                                    // returns once it accepts connections
/// defer { server.stop() }                               // frees the port
/// app.launchArguments += ["-PetkitBaseURL", server.baseURL]
/// app.launch()
/// ```
public final class LoopbackStubServer: Sendable {
    /// The address it listens on: the loopback interface only.
    public static let host = "127.0.0.1"

    private let core: StubServerHost

    /// Serves a stub folder (`mappings/`, `__files/`); problems are in ``loadProblems``, and
    /// with `configuration.strict` any problem is thrown.
    public convenience init(
        stubsDirectory: String, variant: String? = nil,
        configuration: StubHandlerConfiguration = StubHandlerConfiguration(), port: Int = 0
    ) throws(StubSetupError) {
        try self.init(
            stubsDirectory: stubsDirectory, mappings: [], variant: variant, configuration: configuration, port: port)
    }

    /// Serves the stub folder `subdirectory` of a bundle: the UI-test target's own resources
    /// (`resources: [.copy("Stubs")]`, then `LoopbackStubServer(bundle: .module)`). A bundle
    /// without that folder is `StubLoadError.rootNotFound`, naming where it was looked for.
    public convenience init(
        bundle: Bundle, subdirectory: String = "Stubs", variant: String? = nil,
        configuration: StubHandlerConfiguration = StubHandlerConfiguration(), port: Int = 0
    ) throws(StubSetupError) {
        guard let folder = bundle.url(forResource: subdirectory, withExtension: nil) else {
            let base = bundle.resourceURL?.path ?? bundle.bundlePath
            throw .load(.rootNotFound(base + "/" + subdirectory))
        }
        try self.init(
            stubsDirectory: folder.path, mappings: [], variant: variant, configuration: configuration, port: port)
    }

    /// Serves mappings built in Swift; an invalid one is thrown.
    public convenience init(
        mappings: [StubMapping], variant: String? = nil,
        configuration: StubHandlerConfiguration = StubHandlerConfiguration(), port: Int = 0
    ) throws(StubSetupError) {
        try self.init(
            stubsDirectory: nil, mappings: mappings, variant: variant, configuration: configuration, port: port)
    }

    /// Answers from an OpenAPI document in JSON, as `StubSession(openAPIDocument:...)` does
    /// (examples, generated bodies, request validation, security, `stateful` collections of its
    /// own), with the stubs of a folder, when given, answering first.
    public convenience init(
        openAPIDocument path: String, basePath: String? = nil, validatesRequests: Bool = true,
        enforcesSecurity: Bool = true, stateful: Bool = false, stubsDirectory: String? = nil,
        variant: String? = nil, configuration: StubHandlerConfiguration = StubHandlerConfiguration(), port: Int = 0
    ) throws(StubSetupError) {
        let contract = try StubSession.readDocument(path)
        var configuration = configuration
        configuration.fallback = OpenAPIResponder(
            contract: contract, basePath: basePath, validatesRequests: validatesRequests,
            enforcesSecurity: enforcesSecurity, challengeRealm: StubSession.challengeRealm, stateful: stateful)
        try self.init(
            stubsDirectory: stubsDirectory, mappings: [], variant: variant, configuration: configuration, port: port)
    }

    /// Serves a stub folder (if given) plus mappings built in Swift on `port` of `127.0.0.1` (0,
    /// the default, picks a free one), with one event loop. `variant`, when given, replaces the
    /// configuration's. Upstream requests go through `upstreamSession`, else an ephemeral
    /// session made on the first one. Nothing listens until ``start()``.
    public init(
        stubsDirectory: String?, mappings: [StubMapping], variant: String? = nil,
        configuration: StubHandlerConfiguration = StubHandlerConfiguration(), port: Int = 0,
        upstreamSession: URLSession? = nil
    ) throws(StubSetupError) {
        var configuration = configuration
        if let variant { configuration.variant = variant }
        var http = HTTPServerConfiguration(host: Self.host, port: port, eventLoopCount: 1)
        http.clock = configuration.clock
        core = try StubServerHost(
            stubsDirectory: stubsDirectory, mappings: mappings, configuration: configuration,
            upstream: .urlSession(upstreamSession, scheduleOnLoop: UpstreamClients.eventLoopTimers), servers: [http])
    }

    deinit {
        core.stop()
    }

    /// Starts listening; returns once connections are accepted (then ``port`` and ``baseURL``
    /// are set). A port in use, or a second start, is thrown.
    public func start() throws(HTTPServerError) {
        try core.start()
    }

    /// Stops accepting, answers what is under way, and returns once the port is free.
    public func stop() {
        core.stop()
    }

    /// The bound port (after ``start()``; 0 before).
    public var port: Int { core.port }

    /// `http://127.0.0.1:PORT`, the base URL to give the app (after ``start()``).
    public var baseURL: String { StubServerHost.url(scheme: "http", host: Self.host, port: port) }

    /// petmock's engine, answering this server's requests.
    public var handler: StubHandler { core.handler }

    /// The engine's administration (the same one `/__admin` serves): mappings, scenarios, the
    /// journal, global settings.
    public var admin: Admin { core.handler.admin }

    /// The problems found when loading the stub folder (bad files are left out).
    public var loadProblems: [StubProblem] { core.handler.loadProblems }

    /// Sets the variant for every request that names none; nil goes back to the base stubs.
    public func setVariant(_ name: String?) throws(VariantError) {
        try admin.setVariant(name)
    }

    /// Every request this server received, oldest first.
    public var requests: [LoggedRequest] { admin.requests().reversed() }
}
