import HTTPCore

/// Something wrong in a stub file, as data: where (file and JSON path), how bad, and what
/// was expected against what was found.
///
/// Rendered like a compiler diagnostic:
/// `Stubs/mappings/pets.json: error: $.response.status: expected an integer, found string '200'`.
public struct StubProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// How bad a problem is.
    public enum Severity: String, Sendable, Hashable {
        /// The mapping (or file) cannot be served; it is left out.
        case error
        /// The mapping is served, but something in it is ignored (an unknown field) or would
        /// misbehave in WireMock (a regular expression it backtracks on).
        case warning
    }

    /// What kind of problem, for callers and tests to branch on.
    public enum Kind: Sendable, Hashable {
        /// The file is not valid JSON.
        case invalidJSON
        /// A value of the wrong JSON type.
        case wrongType
        /// A value of the right type that is not allowed (a status of 1000, an unknown fault).
        case invalidValue
        /// A required field is missing.
        case missingField
        /// A field petmock does not know or does not support; ignored.
        case unknownField
        /// A regular expression, JSONPath or URL template that does not parse.
        case invalidPattern
        /// A regular expression petmock matches in linear time but a backtracking engine
        /// (WireMock's Java) may take exponential time on (a nested quantifier, `(a+)+`).
        case backtrackingPattern
        /// `bodyFileName` names a file that does not exist or cannot be read.
        case bodyFileUnreadable
        /// `bodyFileName` leads outside `__files/`.
        case bodyFileOutsideRoot
        /// The file cannot be read.
        case unreadableFile
        /// Another mapping already uses this id.
        case duplicateID
        /// Another mapping with the same request (or a wider one) goes first: this one never
        /// answers (``StubShadow``).
        case neverAnswers
        /// The stub folder has no mapping file where WireMock reads them, `mappings/`
        /// (``StubFolder/layoutProblems(mappingFiles:)``).
        case noMappings
        /// A Postman request has no saved example, so no stub (``PostmanCollection``).
        case noExample
        /// A Postman `{{variable}}` has no value in the collection or the environment; it is
        /// matched as any text (in a path, any one segment's text), or sent as written.
        case unresolvedVariable
        /// A Postman auth helper (`auth`) the stubs do not require: not asked to
        /// (`requiringAuth`), or of a type petmock cannot check (digest, hawk, ...).
        case authNotRequired
        /// A Postman script (`event`: `prerequest`, `test`), which petmock never runs.
        case scriptNotRun
    }

    /// How bad it is.
    public var severity: Severity
    /// What kind of problem it is.
    public var kind: Kind
    /// The file, as given to the loader (`Stubs/mappings/pets.json`); empty for mappings
    /// that come from no file, and for a problem of the whole folder.
    public var file: String
    /// Where in the file, as a JSONPath (`$.mappings[2].response.status`); empty for a problem
    /// of the whole folder.
    public var path: String
    /// What was expected, when that is the point (`an integer`).
    public var expected: String?
    /// What was found, quoted (`string '200'`).
    public var found: String?
    /// The message when it is not an expected/found pair.
    public var detail: String?

    /// Creates a problem.
    public init(
        _ severity: Severity, _ kind: Kind, file: String, path: String, expected: String? = nil, found: String? = nil,
        detail: String? = nil
    ) {
        self.severity = severity
        self.kind = kind
        self.file = file
        self.path = path
        self.expected = expected
        self.found = found
        self.detail = detail
    }

    /// The message without location: `expected an integer, found string '200'`.
    public var message: String {
        var parts: [String] = []
        if let detail { parts.append(detail) }
        if let expected { parts.append("expected \(expected)") }
        if let found { parts.append("found \(found)") }
        return parts.joined(separator: ", ")
    }

    /// One line, as printed by `petmock validate` and `serve`: values, keys and file names
    /// from the stub files are shown with their control characters escaped
    /// (``TerminalText/escape(_:)``), so a stub file cannot act on a terminal or a CI log.
    public var description: String {
        description(color: false)
    }

    /// The line, with the severity in red or yellow when `color` (as petcontract's findings).
    public func description(color: Bool) -> String {
        let location = TerminalText.escape(file.isEmpty ? "" : "\(file): ")
        let word = TerminalText.paint(severity.rawValue, severity == .error ? "1;31" : "1;33", if: color)
        return location + word + TerminalText.escape(path.isEmpty ? ": \(message)" : ": \(path): \(message)")
    }

    /// Whether the problem is an error.
    public var isError: Bool { severity == .error }
}

/// Why stubs could not be loaded at all, or (strict loading) why they were refused.
public enum StubLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stub root does not exist.
    case rootNotFound(String)
    /// The stub root, or its `mappings/`, is not a directory or cannot be read.
    case unreadableRoot(String, reason: String)
    /// Problems were found and loading was strict, or mappings given in Swift are invalid.
    case invalidStubs([StubProblem])

    public var description: String {
        switch self {
        case .rootNotFound(let path): "Stub folder '\(path)' does not exist"
        case .unreadableRoot(let path, let reason): "Cannot read stub folder '\(path)': \(reason)"
        case .invalidStubs(let problems):
            "\(problems.count) problem\(problems.count == 1 ? "" : "s") in the stubs:\n"
                + problems.map(\.description).joined(separator: "\n")
        }
    }
}
