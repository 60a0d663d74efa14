import HTTPCore
import HTTPHandlerKit
import MockEngine
import StubFormat

/// petmock's engine as a handler, with no socket: answers each request (stub or `/__admin`)
/// as a value, from a stub folder and mappings built in Swift. The socket server
/// (StubServerKit's `StubServer`) and in-process URLSession stubs (URLSessionStubs) serve it.
public final class StubHandler: HTTPHandler {
    /// The version reported by `/__admin/version` and `/__admin/health`: petkit's
    /// (`HTTPCore.petkitVersion`), the one `petmock --version` prints.
    package static let version = petkitVersion

    /// The configuration it was created with.
    package let configuration: StubHandlerConfiguration
    /// The stub folder, when serving one.
    package let stubsDirectory: String?
    /// The administration interface (the same one `/__admin` serves).
    package let admin: Admin
    /// The problems found when loading (bad files are left out, good ones serve).
    package let loadProblems: [StubProblem]

    package let engine: StubEngine
    private let handler: StubRequestHandler

    /// Loads a stub folder (if given) plus mappings built in Swift, reaching upstreams through
    /// `upstream`. An invalid mapping from code is thrown; with `strict`, any problem is.
    package init(
        stubsDirectory: String?, mappings: [StubMapping], configuration: StubHandlerConfiguration,
        upstream: UpstreamClients, publish: @escaping @Sendable (StubServerEvent) -> Void = { _ in },
        shutdown: @escaping @Sendable () -> Void = {}
    ) throws(StubSetupError) {
        self.configuration = configuration
        self.stubsDirectory = stubsDirectory
        let store: StubStore
        do {
            store = try StubStore(
                loader: stubsDirectory.map {
                    StubLoader(root: $0, globalResponseTemplating: configuration.globalResponseTemplating)
                }, codeMappings: mappings, serverVariant: nil,
                globalResponseTemplating: configuration.globalResponseTemplating, clock: configuration.clock)
        } catch {
            throw .load(error)
        }
        // The folder's own problem (no mapping where WireMock reads them) comes first.
        let layout = stubsDirectory.map { root in
            let folder = StubFolder(root: root)
            return folder.layoutProblems(mappingFiles: (try? folder.listing().files) ?? [])
        }
        let problems = (layout ?? []) + store.initialProblems
        let codeErrors = problems.filter { $0.isError && $0.file.isEmpty }
        if !codeErrors.isEmpty { throw .load(.invalidStubs(codeErrors)) }
        if configuration.strict && !problems.isEmpty { throw .load(.invalidStubs(problems)) }
        loadProblems = problems
        if let target = configuration.proxyUnmatched {
            do {
                try RecordingConfiguration.validateTarget(target)
            } catch {
                throw .proxy(error)
            }
        }
        engine = StubEngine(
            store: store, journalCapacity: configuration.journalCapacity, proxyUnmatched: configuration.proxyUnmatched,
            upstreamTimeout: configuration.upstreamTimeout,
            upstream: UpstreamProxy(clients: upstream, settings: configuration.upstream, clock: configuration.clock),
            fallback: configuration.fallback, cors: configuration.cors, publish: publish,
            stateLimits: configuration.stateLimits)
        if let name = configuration.variant {
            do {
                store.setServerVariant(try engine.resolveServerWide(name, in: store.snapshot().index))
            } catch {
                throw .variant(error)
            }
        }
        admin = Admin(engine: engine, shutdown: shutdown)
        admin.problemLog.replaceAll(problems)
        let router = AdminRouter(admin: admin, access: configuration.adminAccess, version: Self.version)
        handler = StubRequestHandler(engine: engine, router: router)
    }

    /// The reply to one request, stub or `/__admin`, exactly as the server gives it (journal,
    /// scenarios and recording included); proxied requests are deferred replies.
    public func reply(to request: HTTPServerRequest) -> HTTPReply {
        handler.reply(to: request)
    }
}
