import APISchema
import HTTPCore

/// The formats a ``VerificationReport`` can be rendered in.
public enum ReportFormat: String, Sendable, Hashable, CaseIterable {
    /// Compiler-style lines for people (the default).
    case text
    /// One JSON object; its JSON Schema is `docs/petcontract-report.schema.json`.
    case json
    /// JUnit XML: one test case per operation.
    case junit
    /// GitHub Actions workflow commands (`::error title=...::...`).
    case github
    /// SARIF 2.1.0, for code-scanning dashboards.
    case sarif
    /// One self-contained HTML page (inline CSS and script), with the response body around
    /// each finding; for people, in a browser or a CI artifact.
    case html
}

/// Renders reports; pure functions of the report, so outputs can be compared with snapshots.
///
/// ```swift
/// let text = ReportRenderer(color: false).render(report, as: .text)
/// ```
public struct ReportRenderer: Sendable {
    /// Whether text output uses ANSI colours (on a terminal, unless `NO_COLOR` is set).
    public var color: Bool
    /// Whether warnings fail (`--strict`): JUnit then lists them as failures, HTML's verdict
    /// counts them.
    public var strict: Bool

    /// Creates a renderer.
    public init(color: Bool = false, strict: Bool = false) {
        self.color = color
        self.strict = strict
    }

    /// The report in the format, ending with a newline.
    public func render(_ report: VerificationReport, as format: ReportFormat) -> String {
        switch format {
        // Text, workflow commands and JUnit's messages end up in terminals and CI logs as they
        // are: what came from outside is shown escaped there. JSON and SARIF escape for JSON.
        case .text: TextReporter(color: color).render(report.escapedForTerminals)
        case .json: JSONReporter().render(report)
        case .junit: JUnitReporter(strict: strict).render(report.escapedForTerminals)
        case .github: GitHubReporter().render(report.escapedForTerminals)
        case .sarif: SARIFReporter().render(report)
        // HTML escapes everything itself; its policy lets only its own script run.
        case .html: HTMLReporter(strict: strict).render(report)
        }
    }

    /// Whether text output should be coloured: standard output is a terminal and `NO_COLOR` is
    /// unset or empty (https://no-color.org).
    public static func wantsColor(isTerminal: Bool, environment: [String: String]) -> Bool {
        TerminalText.wantsColor(isTerminal: isTerminal, environment: environment)
    }
}

extension FindingLevel {
    /// The compiler word for the level: `error`, `warning`, `note`.
    var compilerWord: String {
        switch self {
        case .breaking: "error"
        case .warning: "warning"
        case .info: "note"
        }
    }
}

extension VerificationReport {
    /// The report with every string in it passed through ``TerminalText/escape(_:)``: keys,
    /// values and URLs from the API (and names from the contract) can print no control
    /// character and start no line.
    var escapedForTerminals: VerificationReport {
        var copy = self
        copy.target = TerminalText.escape(target)
        copy.contract = TerminalText.escape(contract)
        copy.operations = operations.map(TerminalText.escape)
        copy.notes = notes.map(TerminalText.escape)
        copy.skipped = skipped.map { skipped in
            var skipped = skipped
            skipped.operation = TerminalText.escape(skipped.operation)
            skipped.reason = TerminalText.escape(skipped.reason)
            return skipped
        }
        copy.findings = findings.map { finding in
            var finding = finding
            finding.operation = TerminalText.escape(finding.operation)
            finding.url = finding.url.map(TerminalText.escape)
            finding.path = TerminalText.escape(finding.path)
            finding.expected = TerminalText.escape(finding.expected)
            finding.actual = TerminalText.escape(finding.actual)
            finding.swift = finding.swift.map(TerminalText.escape)
            finding.message = TerminalText.escape(finding.message)
            finding.hint = finding.hint.map(TerminalText.escape)
            return finding
        }
        copy.errors = errors.map { error in
            var error = error
            error.operation = TerminalText.escape(error.operation)
            error.url = error.url.map(TerminalText.escape)
            error.message = TerminalText.escape(error.message)
            return error
        }
        return copy
    }
}
