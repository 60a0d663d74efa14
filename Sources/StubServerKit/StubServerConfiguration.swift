import HTTPServerKit
import MockEngine
import Platform
import TLSKit

/// How a ``StubServer`` listens and behaves; every argument has a default.
///
/// ```swift
/// let configuration = StubServerConfiguration(port: 0, variant: "missing:lastName")
/// ```
public struct StubServerConfiguration: Sendable {
    /// The address to listen on.
    public var host: String
    /// The port; 0 picks a free one (read it from ``StubServer/port``).
    public var port: Int
    /// How many event loops serve requests; nil uses one per core.
    public var eventLoopCount: Int?
    /// The variant active for every request that names none (a file or generated variant).
    public var variant: String?
    /// How many requests the journal keeps (0 keeps none).
    public var journalCapacity: Int
    /// Who may use `/__admin`.
    public var adminAccess: AdminAccess
    /// Refuse to start when any stub file has a problem (warnings included).
    public var strict: Bool
    /// Reload mapping files when they change (see ``watcher``).
    public var watch: Bool
    /// How ``watch`` sees changes: `.automatic` (the `PETKIT_WATCHER` environment variable,
    /// `inotify` or `polling`, else inotify on Linux and polling elsewhere), `.inotify` (Linux
    /// only) or `.polling` (a bounded scan of the folders every 200 ms).
    public var watcher: FileWatcherKind = .automatic
    /// Timeouts, limits and so on for the underlying HTTP server; its host, port and loop
    /// count are replaced by the values above.
    public var http: HTTPServerConfiguration
    /// The live API (`http://127.0.0.1:8081`) unmatched requests are forwarded to instead of
    /// a 404; the journal marks them as proxied. Nil answers them 404.
    public var proxyUnmatched: String?
    /// How long a proxied request may take before the caller gets a 504.
    public var upstreamTimeout: Duration
    /// How proxy stubs reach their upstream (on the event loops by default) and the bounds on
    /// that work: transfers per loop, cached connections, response size.
    public var upstream = UpstreamSettings()
    /// Render every stub's response as a template, not only those whose `transformers` name
    /// `response-template` (`--global-response-templating`).
    public var globalResponseTemplating: Bool
    /// The one clock the server and its engine read: timeouts, delays and the `Date` header
    /// (it replaces ``http``'s clock), journal timestamps, templating's `now`, date matching's
    /// "now". The system clock by default; a test passes one it sets by hand.
    public var clock: TimeSource
    /// What answers the requests no stub matches (an OpenAPI document), if anything.
    public var fallback: (any FallbackReplySource)?
    /// Answer browsers' cross-origin requests (`--cors`): preflights no stub naming `OPTIONS`
    /// matches, and the CORS fields of every stub answer to a request with `Origin`; off by
    /// default (``StubHandlerConfiguration/cors``).
    public var cors = false
    /// The bounds of the state extension's store (``StubHandlerConfiguration/stateLimits``).
    public var stateLimits: StateLimits = .standard
    /// Serve plain HTTP on ``port`` (true by default); false serves HTTPS alone, which needs
    /// ``httpsPort``.
    public var servesPlainHTTP = true
    /// Serve HTTPS on this port too (0 picks a free one: read ``StubServer/httpsPort``); nil
    /// serves none. The certificate comes from ``certificateAuthority``. The same engine answers
    /// both ports. Not on iOS, whose SDK has no OpenSSL: an app's in-process server there is
    /// plain HTTP (docs/petmock.md).
    public var httpsPort: Int?
    /// The local certificate authority that issues the HTTPS certificate (`~/.petmock/ca` by default).
    public var certificateAuthority = LocalCertificateAuthority(directory: LocalCertificateAuthority.defaultDirectory)

    /// Creates a configuration.
    public init(
        host: String = "127.0.0.1", port: Int = 0, eventLoopCount: Int? = nil, variant: String? = nil,
        journalCapacity: Int = 10_000, adminAccess: AdminAccess = .loopbackOnly, strict: Bool = false,
        watch: Bool = false, http: HTTPServerConfiguration = HTTPServerConfiguration(), proxyUnmatched: String? = nil,
        upstreamTimeout: Duration = .seconds(30), globalResponseTemplating: Bool = false,
        clock: TimeSource = .system
    ) {
        self.clock = clock
        self.globalResponseTemplating = globalResponseTemplating
        self.host = host
        self.port = port
        self.eventLoopCount = eventLoopCount
        self.variant = variant
        self.journalCapacity = journalCapacity
        self.adminAccess = adminAccess
        self.strict = strict
        self.watch = watch
        self.http = http
        self.proxyUnmatched = proxyUnmatched
        self.upstreamTimeout = upstreamTimeout
    }

    /// The engine's part of the configuration.
    public var handlerConfiguration: StubHandlerConfiguration {
        var configuration = StubHandlerConfiguration(
            variant: variant, journalCapacity: journalCapacity, adminAccess: adminAccess, strict: strict,
            proxyUnmatched: proxyUnmatched, upstreamTimeout: upstreamTimeout, upstream: upstream,
            globalResponseTemplating: globalResponseTemplating, clock: clock, fallback: fallback, cors: cors)
        configuration.stateLimits = stateLimits
        return configuration
    }

    var httpConfiguration: HTTPServerConfiguration {
        var configuration = http
        configuration.host = host
        configuration.port = port
        configuration.clock = clock
        if let eventLoopCount { configuration.eventLoopCount = max(1, eventLoopCount) }
        return configuration
    }

    var httpsConfiguration: HTTPServerConfiguration? {
        guard let httpsPort else { return nil }
        var configuration = httpConfiguration
        configuration.port = httpsPort
        configuration.tls = HTTPServerTLS(
            certificatePath: certificateAuthority.serverCertificatePath,
            privateKeyPath: certificateAuthority.serverKeyPath)
        return configuration
    }
}
