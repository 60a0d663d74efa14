import StubFormat

/// A mapping that was not loaded because it has errors, or a mapping file none of which
/// loaded: a 404 for a request it would have matched names its file and why it was refused,
/// so its author looks at the mapping and not at the request; with no stub loaded at all,
/// every one is named.
struct RefusedStub: Sendable {
    /// The mapping, as much of it as decoded; nil for a file with no mapping to read (not
    /// JSON, not a mapping object, unreadable).
    let mapping: StubMapping?
    /// Its file.
    let file: String
    /// What it would have matched: its request pattern; only its method and URL when the rest
    /// does not compile; nil when it names no URL (it would match every request, which says
    /// nothing) or its URL does not compile.
    let pattern: CompiledRequestPattern?
    /// Why it was refused: its errors.
    let reasons: [StubProblem]

    /// A refused mapping, refused for `problems` (its errors are kept).
    static func make(_ mapping: StubMapping, file: String, problems: [StubProblem]) -> RefusedStub {
        RefusedStub(
            mapping: mapping, file: file, pattern: Self.pattern(of: mapping.request),
            reasons: problems.filter(\.isError))
    }

    /// A mapping file that holds no mapping petmock could read, refused for `problems`.
    static func file(_ file: String, problems: [StubProblem]) -> RefusedStub {
        RefusedStub(mapping: nil, file: file, pattern: nil, reasons: problems.filter(\.isError))
    }

    /// The request pattern, else its method and URL alone (a refused mapping is refused more
    /// often for a bad matcher than for a bad URL), when it names a URL.
    private static func pattern(of request: RequestPattern) -> CompiledRequestPattern? {
        guard request.url != nil else { return nil }
        var problems: [PatternProblem] = []
        if let whole = CompiledRequestPattern.compile(request, problems: &problems) { return whole }
        var methodAndURL = RequestPattern(method: request.method, url: request.url)
        methodAndURL.methods = request.methods
        return CompiledRequestPattern.compile(methodAndURL, problems: &problems)
    }

    /// Whether it would have matched the request.
    func matches(_ request: MatchableRequest) -> Bool {
        pattern?.matches(request) ?? false
    }

    /// `'NAME' (mappings/FILE.json)` (``StubLabel``), or the file alone.
    var label: String {
        mapping.map { StubLabel.label($0, file: file) } ?? StubLabel.shortFile(file)
    }

    /// Why it was refused, in one line: the first errors with their JSON paths.
    var why: String {
        let shown = reasons.prefix(Self.listedReasons).map {
            $0.path.isEmpty ? $0.message : "\($0.path): \($0.message)"
        }
        let more = reasons.count - shown.count
        return (shown + (more > 0 ? ["and \(more) more ('petmock validate' lists them)"] : [])).joined(separator: "; ")
    }

    /// How many of its errors a report lists.
    static let listedReasons = 3
}
