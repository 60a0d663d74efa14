import HTTPCore

/// How requests are recorded into stubs: where they go upstream, what is kept, what is never
/// written. Every field but the target has a default.
///
/// ```swift
/// let configuration = RecordingConfiguration(
///     targetBaseURL: "http://127.0.0.1:8081", repeatsAsScenarios: true, redactedHeaders: ["X-Api-Key"])
/// try server.admin.startRecording(configuration)
/// ```
public struct RecordingConfiguration: Sendable, Hashable {
    /// Headers never written to a stub file, whatever else is asked (request or response side).
    public static let alwaysRedacted = ["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "Set-Cookie2"]

    /// The live API requests are forwarded to: scheme, host, port and an optional path prefix
    /// (`http://127.0.0.1:8081`); a request for `/api/pets` goes to `TARGET/api/pets`. Not
    /// needed for a snapshot, which records what the journal already holds.
    public var targetBaseURL: String?
    /// A request seen again with another answer becomes the next step of a scenario
    /// (WireMock's `repeatsAsScenarios`); otherwise only the first answer is kept.
    public var repeatsAsScenarios: Bool
    /// Record upstream failures (timeouts, resets, garbage) as the 502/504 or fault the
    /// caller got; otherwise they are passed on but not recorded.
    public var recordFailures: Bool
    /// More header names never written (``alwaysRedacted`` always are), matched ignoring case.
    public var redactedHeaders: [String]
    /// Request headers the recorded mappings match on (WireMock's `captureHeaders`); none by
    /// default, so the method, URL and body decide.
    public var capturedHeaders: [CapturedHeader]
    /// Write the mappings to the stub folder (`mappings/`, `__files/`); otherwise they are
    /// only added to the running server.
    public var persist: Bool
    /// Text bodies (JSON included) longer than this many bytes go to `__files/`.
    public var textBodyFileThreshold: Int
    /// Binary bodies longer than this many bytes go to `__files/` (0: all of them).
    public var binaryBodyFileThreshold: Int
    /// How long one upstream request may take before the caller gets a 504.
    public var timeout: Duration
    /// The API's path prefix when the target was given as its base URL (`/api` of
    /// `http://127.0.0.1:8081/api`, see ``mount(baseURL:)``); nil when ``targetBaseURL`` is an
    /// origin to append paths to. Requests keep their path upstream; one outside the prefix is
    /// refused with a 404 (neither forwarded nor recorded), and a 404 to a path that repeats the
    /// prefix (`/api/api/pets`) is not recorded (``RecordingEvent/prefixRepeated(request:basePath:)``).
    public var basePath: String?
    /// Hold 404 answers back, unrecorded, until some request gets another answer (then they
    /// are recorded, in order): a target where nothing is found, a wrong base URL, records
    /// nothing, and ``RecordingResult/heldNotFound`` says so.
    public var holdsNotFound: Bool

    /// Creates a configuration.
    public init(
        targetBaseURL: String? = nil, repeatsAsScenarios: Bool = false, recordFailures: Bool = false,
        redactedHeaders: [String] = [], capturedHeaders: [CapturedHeader] = [], persist: Bool = true,
        textBodyFileThreshold: Int = 64 * 1024, binaryBodyFileThreshold: Int = 0, timeout: Duration = .seconds(30),
        holdsNotFound: Bool = false
    ) {
        self.targetBaseURL = targetBaseURL
        self.repeatsAsScenarios = repeatsAsScenarios
        self.recordFailures = recordFailures
        self.redactedHeaders = redactedHeaders
        self.capturedHeaders = capturedHeaders
        self.persist = persist
        self.textBodyFileThreshold = textBodyFileThreshold
        self.binaryBodyFileThreshold = binaryBodyFileThreshold
        self.timeout = timeout
        self.holdsNotFound = holdsNotFound
    }

    /// Takes the target as the API's base URL, path prefix included, as `petmock record
    /// --target` and `petcontract verify --live` take it: requests go to its origin with their
    /// path as they came (a client of `http://proxy/api` asks for `/api/pets`, sent to
    /// `http://api-host/api/pets`), and only paths under the prefix are forwarded.
    public mutating func mount(baseURL: String) {
        let path = HTTPRequestHead(method: .get, target: baseURL).path
        var prefix = String(path)
        while prefix.hasSuffix("/") { prefix.removeLast() }
        basePath = prefix.isEmpty ? nil : prefix
        var origin = Substring(baseURL)
        if origin.hasSuffix(path) { origin = origin.dropLast(path.count) }
        targetBaseURL = String(origin)
    }

    /// The refusal of a request whose path lies outside ``basePath``, nil for one inside it.
    /// `host` is the `Host` the client used, to name the base URL it should use.
    func refusal(method: HTTPMethod, path: Substring, host: String?) -> RequestProblem? {
        guard let basePath, !Self.path(path, isUnder: basePath) else { return nil }
        let proxy = host.map { "http://\($0)\(basePath)" } ?? "this proxy's address with the path \(basePath)"
        return RequestProblem(
            .outsideRecordedAPI, requested: nil,
            message: "\(method) \(path) is outside the recorded API's base path '\(basePath)' "
                + "(its base URL is \(targetBaseURL ?? "")\(basePath)); nothing was forwarded or recorded. "
                + "Point the client at \(proxy): the recording proxy keeps each path as it comes")
    }

    /// Whether the path of an exchange's origin form (`/api/api/pets?x=1`) repeats ``basePath``.
    func repeatsBasePath(_ originForm: String) -> Bool {
        guard let basePath else { return false }
        let path = originForm.prefix { $0 != "?" }
        guard path.hasPrefix(basePath) else { return false }
        return Self.path(path.dropFirst(basePath.count), isUnder: basePath)
    }

    /// `/api`, `/api/...` are under `/api`; `/apis` is not.
    private static func path(_ path: Substring, isUnder prefix: String) -> Bool {
        guard path.hasPrefix(prefix) else { return false }
        let rest = path.dropFirst(prefix.count)
        return rest.isEmpty || rest.first == "/"
    }

    /// Whether a header is never written.
    public func isRedacted(_ name: String) -> Bool {
        Self.alwaysRedacted.contains { $0.equalsIgnoringASCIICase(name) }
            || redactedHeaders.contains { $0.equalsIgnoringASCIICase(name) }
    }

    /// Checks the target: an absolute `http` or `https` URL without query or fragment.
    public static func validateTarget(_ target: String) throws(RecordingError) {
        let lower = target.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            throw .invalidTarget(target, reason: "expected an http:// or https:// URL")
        }
        let afterScheme = target.drop { $0 != ":" }.dropFirst(3)
        let authority = afterScheme.prefix { $0 != "/" }
        guard !authority.isEmpty else { throw .invalidTarget(target, reason: "expected a host after the scheme") }
        guard !target.contains("?") && !target.contains("#") else {
            throw .invalidTarget(target, reason: "expected no query or fragment")
        }
    }
}
