import Platform

/// How a ``StubHandler`` answers, whatever serves it (the socket server, URLSession stubs);
/// every argument has a default.
public struct StubHandlerConfiguration: Sendable {
    /// The variant active for every request that names none (a file or generated variant).
    public var variant: String?
    /// How many requests the journal keeps (0 keeps none).
    public var journalCapacity: Int
    /// Who may use `/__admin`.
    public var adminAccess: AdminAccess
    /// Refuse to start when any stub file has a problem (warnings included).
    public var strict: Bool
    /// The live API unmatched requests are forwarded to instead of a 404; nil answers 404.
    public var proxyUnmatched: String?
    /// How long a proxied request may take before the caller gets a 504.
    public var upstreamTimeout: Duration
    /// How proxy stubs reach their upstream and the bounds on that work.
    public var upstream: UpstreamSettings
    /// Render every stub's response as a template, not only those whose `transformers` name
    /// `response-template`.
    public var globalResponseTemplating: Bool
    /// The clock the engine reads: journal timestamps, templating's `now`, date matching's
    /// "now", the durations of upstream calls. The system clock by default; a test passes one
    /// it sets by hand (TestSupport's `ManualClock`).
    public var clock: TimeSource
    /// What answers the requests no stub matches, before `proxyUnmatched` and the 404 (an
    /// OpenAPI document's operations); nil leaves them unmatched.
    public var fallback: (any FallbackReplySource)?
    /// Answer browsers' cross-origin requests (`petmock serve --cors`): a preflight no stub
    /// naming `OPTIONS` matches gets a 204 allowing it, and the answer to a request with
    /// `Origin` allows that origin and exposes its fields. Off by default, as in WireMock
    /// (`petmock serve` turns it on with `--openapi`, as Prism does).
    public var cors: Bool
    /// The bounds of the state extension's store (`recordState`): contexts, entries a list,
    /// bytes.
    public var stateLimits: StateLimits = .standard

    /// Creates a configuration.
    public init(
        variant: String? = nil, journalCapacity: Int = 10_000, adminAccess: AdminAccess = .loopbackOnly,
        strict: Bool = false, proxyUnmatched: String? = nil, upstreamTimeout: Duration = .seconds(30),
        upstream: UpstreamSettings = UpstreamSettings(), globalResponseTemplating: Bool = false,
        clock: TimeSource = .system, fallback: (any FallbackReplySource)? = nil, cors: Bool = false
    ) {
        self.cors = cors
        self.fallback = fallback
        self.clock = clock
        self.variant = variant
        self.journalCapacity = journalCapacity
        self.adminAccess = adminAccess
        self.strict = strict
        self.proxyUnmatched = proxyUnmatched
        self.upstreamTimeout = upstreamTimeout
        self.upstream = upstream
        self.globalResponseTemplating = globalResponseTemplating
    }
}
