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

    /// Creates a configuration.
    public init(
        targetBaseURL: String? = nil, repeatsAsScenarios: Bool = false, recordFailures: Bool = false,
        redactedHeaders: [String] = [], capturedHeaders: [CapturedHeader] = [], persist: Bool = true,
        textBodyFileThreshold: Int = 64 * 1024, binaryBodyFileThreshold: Int = 0, timeout: Duration = .seconds(30)
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
