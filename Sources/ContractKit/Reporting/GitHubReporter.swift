/// GitHub Actions workflow commands: `::error`, `::warning` and `::notice` annotations, then a
/// plain summary line.
struct GitHubReporter {
    func render(_ report: VerificationReport) -> String {
        var lines: [String] = []
        for finding in report.findings {
            let command =
                switch finding.level {
                case .breaking: "error"
                case .warning: "warning"
                case .info: "notice"
                }
            var message = "\(finding.operation) \(finding.path): \(finding.message)"
            message += " (expected \(finding.expected), found \(finding.actual))"
            if let swift = finding.swift { message += "\nSwift: \(swift)" }
            if let url = finding.url { message += "\nAt: \(url)" + (finding.status.map { " (\($0))" } ?? "") }
            if finding.count > 1 { message += "\n\(finding.count) occurrences, the first shown" }
            if let hint = finding.hint { message += "\nHint: \(hint)" }
            lines.append("::\(command) title=\(property(finding.id.rawValue))::\(data(message))")
        }
        for error in report.errors {
            let message =
                "\(error.operation): could not verify: \(error.message)" + (error.url.map { "\nAt: \($0)" } ?? "")
            lines.append("::error title=could-not-verify::\(data(message))")
        }
        for skipped in report.skipped {
            lines.append("::notice title=skipped::\(data("\(skipped.operation): skipped: \(skipped.reason)"))")
        }
        // Plain text on standard output, after the annotations: GitHub shows it in the log.
        lines.append("petcontract: " + report.summaryLine)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Escapes a command's message (GitHub's toolkit `escapeData`).
    private func data(_ text: String) -> String {
        text.replacing("%", with: "%25").replacing("\r", with: "%0D").replacing("\n", with: "%0A")
    }

    /// Escapes a command property (`escapeProperty`).
    private func property(_ text: String) -> String {
        data(text).replacing(":", with: "%3A").replacing(",", with: "%2C")
    }
}
