import APISchema

/// Everything one verification (or contract diff) found: findings, endpoints that could not
/// be checked, and notes. Reporters render it; ``outcome(strict:)`` decides the exit code.
public struct VerificationReport: Sendable, Hashable {
    /// What was checked: a base URL, a stub folder, or `OLD -> NEW` for a diff.
    public var target: String
    /// The contract used: a file, or `built-in` for the models' own.
    public var contract: String
    /// The operations checked, in order (`GET /pets`).
    public var operations: [String]
    /// Every finding, repeats collapsed.
    public var findings: [Finding]
    /// Endpoints or mappings that could not be checked, and why.
    public var errors: [VerificationError]
    /// Things worth saying that are not findings (a mapping skipped, an operation not called).
    public var notes: [String]
    /// Operations of the contract that were not checked, and why: info, a failure only under
    /// `--strict` (see ``outcome(strict:)``).
    public var skipped: [SkippedOperation]
    /// How many findings an ignore file accepted.
    public var ignored: Int
    /// Whether bodies were also decoded with the app's `Codable` models; nil for a diff.
    public var decodeCheck: DecodeCheckCoverage?

    /// Creates a report.
    public init(
        target: String, contract: String, operations: [String] = [], findings: [Finding] = [],
        errors: [VerificationError] = [], notes: [String] = [], skipped: [SkippedOperation] = [], ignored: Int = 0,
        decodeCheck: DecodeCheckCoverage? = nil
    ) {
        self.skipped = skipped
        self.decodeCheck = decodeCheck
        self.target = target
        self.contract = contract
        self.operations = operations
        self.findings = findings
        self.errors = errors
        self.notes = notes
        self.ignored = ignored
    }

    /// `2 operations checked, 1 skipped, against URL (contract C): 1 breaking, 1 warning, 0 info,
    /// 0 errors`, each count with its plural; the skipped and the ignored ones when there are any.
    public var summaryLine: String {
        let summary = self.summary
        func count(_ number: Int, _ word: String, plural: String? = nil) -> String {
            "\(number) \(number == 1 ? word : plural ?? word + "s")"
        }
        var line = "\(count(summary.operations, "operation")) checked"
        if summary.skipped > 0 { line += ", \(summary.skipped) skipped," }
        line +=
            " against \(target) (contract \(contract)): "
            + "\(summary.breaking) breaking, \(count(summary.warning, "warning")), \(summary.info) info, "
            + count(summary.errors, "error")
        if ignored > 0 { line += ", \(ignored) ignored" }
        return line
    }

    /// Counts for the summary line and the JSON report.
    public var summary: Summary {
        Summary(
            operations: operations.count, skipped: skipped.count,
            breaking: findings.filter { $0.level == .breaking }.count,
            warning: findings.filter { $0.level == .warning }.count, info: findings.filter { $0.level == .info }.count,
            errors: errors.count)
    }

    /// The verdict: breaking findings fail (warnings too when `strict`); otherwise anything
    /// that could not be checked means the check could not be completed, and so, when
    /// `strict`, does an operation skipped.
    public func outcome(strict: Bool) -> VerificationOutcome {
        let summary = self.summary
        if summary.breaking > 0 || (strict && summary.warning > 0) { return .failed }
        if summary.errors > 0 || (strict && summary.skipped > 0) { return .couldNotVerify }
        return .passed
    }

    /// The report with one more error when it checked no operation and says nothing else that
    /// could not be verified: a verification that checked nothing is no pass. A caller that
    /// accepts an empty check (`--allow-empty`) leaves the report as it is.
    public func requiringAnOperationChecked() -> VerificationReport {
        guard operations.isEmpty, errors.isEmpty else { return self }
        var copy = self
        let skippedCount = skipped.isEmpty ? "" : " (\(skipped.count) skipped)"
        copy.errors.append(
            VerificationError(
                operation: "all operations", url: nil,
                message: "no operation was checked\(skippedCount); --allow-empty accepts a run that checks nothing"))
        return copy
    }

    /// Removes the findings an ignore list accepts and counts them.
    public func applying(_ ignoreList: IgnoreList) -> VerificationReport {
        var copy = self
        copy.findings = findings.filter { !ignoreList.accepts($0) }
        copy.ignored += findings.count - copy.findings.count
        return copy
    }

    /// Counts of findings by level, operations checked and skipped, and errors.
    public struct Summary: Sendable, Hashable {
        /// Operations checked.
        public var operations: Int
        /// Operations of the contract not checked (``VerificationReport/skipped``).
        public var skipped: Int
        /// Breaking findings.
        public var breaking: Int
        /// Warnings.
        public var warning: Int
        /// Info findings.
        public var info: Int
        /// Endpoints that could not be checked.
        public var errors: Int
    }
}

/// An operation of the contract that was not checked: a required parameter has no value (no
/// earlier response, example, enum, default or `--param` gave one), its method is not among
/// those called, or no base mapping of the stub folder is for it. Reported at level info; it
/// fails a check only under `--strict`, where the check is incomplete (could not verify).
public struct SkippedOperation: Sendable, Hashable {
    /// Why an operation was not checked.
    public enum Cause: Sendable, Hashable {
        /// A required parameter has no value.
        case noParameterValue
        /// Its method is not among those called (`--methods`).
        case methodNotCalled
        /// No base mapping of the stub folder was checked against it.
        case noStubMapping
    }

    /// The operation, `GET /repos/{owner}/{repo}`.
    public var operation: String
    /// Why, `no value for {owner}, {repo}`.
    public var reason: String
    /// Why, as a case.
    public var cause: Cause

    /// Creates a skipped operation.
    public init(operation: String, reason: String, cause: Cause = .noParameterValue) {
        self.operation = operation
        self.reason = reason
        self.cause = cause
    }
}

/// The verdict of a verification, which the CLI turns into its exit code.
public enum VerificationOutcome: Sendable, Hashable {
    /// Nothing breaking (exit 0).
    case passed
    /// Breaking drift, or warnings under `--strict` (exit 1).
    case failed
    /// Something could not be checked (or, under `--strict`, an operation was skipped) and
    /// nothing breaking was found elsewhere (exit 2).
    case couldNotVerify
}

/// An endpoint or stub mapping that could not be checked: unreachable, timed out, unreadable.
public struct VerificationError: Error, Sendable, Hashable {
    /// The operation, `GET /vets/{id}`, or the stub file.
    public var operation: String
    /// The URL (or file) involved.
    public var url: String?
    /// What went wrong.
    public var message: String
    /// For "every operation answered 404 (or a web page)": the parts of the message, for a
    /// caller that names its own option in it (``WrongBaseURL/message(option:)``).
    public var wrongBaseURL: WrongBaseURL?

    /// Creates an error.
    public init(operation: String, url: String?, message: String, wrongBaseURL: WrongBaseURL? = nil) {
        self.operation = operation
        self.url = url
        self.message = message
        self.wrongBaseURL = wrongBaseURL
    }
}

/// A base URL under which nothing answered as the API: every operation a 404 or a web page.
public struct WrongBaseURL: Sendable, Hashable {
    /// The base URL given, without a trailing slash.
    public var base: String
    /// What came back: `answered 404`, `answered with a web page (text/html)`.
    public var answered: String
    /// The first operations, `GET /pets, GET /vets, ...`.
    public var operations: String
    /// A base URL seen to answer, when the probe found one.
    public var suggestion: BaseURLProbe.Suggestion?

    /// Creates one.
    public init(base: String, answered: String, operations: String, suggestion: BaseURLProbe.Suggestion?) {
        self.base = base
        self.answered = answered
        self.operations = operations
        self.suggestion = suggestion
    }

    /// The message, naming `option` (`--live`) as what takes the base URL, or in the library's
    /// words when nil.
    public func message(option: String?) -> String {
        var message =
            "every operation \(answered) at \(base) (\(operations)): "
            + (option.map { "\($0) takes the API's base URL" } ?? "the base URL is the API's")
            + ", path prefix included"
        if let suggestion {
            message += ": " + suggestion.hint(option: option)
        } else {
            message += " (\(BaseURLProbe.nothingFound(under: base)))"
        }
        return message
    }
}

/// How much of a contract the `Codable` decode check covers: a body is decoded with the app's
/// real type when the registry has the type its response names (`x-swift-type`); without one
/// the body is checked against the schema only.
public enum DecodeCheckCoverage: Sendable, Hashable {
    /// Every response body type has its model.
    case full
    /// These body types have no model: their bodies are checked against the schema only.
    case partial(withoutModel: [String])
    /// No response body type has a model (a third-party contract, or no models at hand).
    case none

    /// `full`, `partial` or `none`, as the JSON report writes it.
    public var name: String {
        switch self {
        case .full: "full"
        case .partial: "partial"
        case .none: "none"
        }
    }

    /// The body types without a model.
    public var typesWithoutModel: [String] {
        if case .partial(let types) = self { return types }
        return []
    }
}
