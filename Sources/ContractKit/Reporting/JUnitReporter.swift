import APISchema

/// JUnit XML: a test case per operation, checked or skipped; its breaking findings (and
/// warnings with `--strict`) are one `<failure>`, endpoints that could not be checked an
/// `<error>`, a skipped operation `<skipped>` (counted in the suite's `skipped`), the rest
/// `<system-out>`.
struct JUnitReporter {
    let strict: Bool

    func render(_ report: VerificationReport) -> String {
        var names = report.operations
        let skippedNames = report.skipped.map(\.operation)
        for name in report.findings.map(\.operation) + report.errors.map(\.operation) + skippedNames
        where !names.contains(name) {
            names.append(name)
        }
        var cases: [String] = []
        var failures = 0
        var errors = 0
        for name in names {
            let findings = report.findings.filter { $0.operation == name }
            let failing = findings.filter { $0.level == .breaking || (strict && $0.level == .warning) }
            let others = findings.filter { !failing.contains($0) }
            let problems = report.errors.filter { $0.operation == name }
            var body: [String] = []
            if !failing.isEmpty {
                failures += 1
                let message =
                    "\(failing.count) finding\(failing.count == 1 ? "" : "s"): "
                    + failing.map(\.id.rawValue).joined(separator: ", ")
                body.append(
                    "      <failure type=\"\(XML.escape(failing[0].id.rawValue))\" message=\"\(XML.escape(message))\">"
                        + XML.escape(failing.map(describe).joined(separator: "\n")) + "</failure>")
            }
            if !problems.isEmpty {
                errors += 1
                let message = problems.map(\.message).joined(separator: "; ")
                let details = problems.map { "\($0.url ?? $0.operation): \($0.message)" }.joined(separator: "\n")
                body.append(
                    "      <error type=\"could-not-verify\" message=\"\(XML.escape(message))\">\(XML.escape(details))</error>"
                )
            }
            for skipped in report.skipped where skipped.operation == name {
                body.append("      <skipped message=\"\(XML.escape("skipped: " + skipped.reason))\"/>")
            }
            if !others.isEmpty {
                body.append(
                    "      <system-out>" + XML.escape(others.map(describe).joined(separator: "\n")) + "</system-out>")
            }
            let open = "    <testcase classname=\"petcontract\" name=\"\(XML.escape(name))\""
            cases.append(body.isEmpty ? open + "/>" : open + ">\n" + body.joined(separator: "\n") + "\n    </testcase>")
        }
        let counts = "tests=\"\(names.count)\" failures=\"\(failures)\" errors=\"\(errors)\""
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<testsuites name=\"petcontract\" \(counts)>",
            "  <testsuite name=\"\(XML.escape("petcontract " + report.target))\" \(counts) skipped=\"\(report.skipped.count)\">",
            "    <properties>",
            "      <property name=\"target\" value=\"\(XML.escape(report.target))\"/>",
            "      <property name=\"contract\" value=\"\(XML.escape(report.contract))\"/>",
            "    </properties>",
        ]
        lines += cases
        lines += ["  </testsuite>", "</testsuites>"]
        return lines.joined(separator: "\n") + "\n"
    }

    private func describe(_ finding: Finding) -> String {
        var text = "\(finding.level.rawValue) \(finding.id.rawValue) \(finding.path): \(finding.message)"
        text += " (expected \(finding.expected), found \(finding.actual)"
        if let swift = finding.swift { text += "; \(swift)" }
        if let url = finding.url { text += "; \(url)" }
        if finding.count > 1 { text += "; \(finding.count) occurrences" }
        return text + ")"
    }
}

/// XML text and attribute escaping: ``Markup/escape(_:keepingLineBreaks:)`` (line breaks
/// kept, as JUnit viewers show them).
enum XML {
    static func escape(_ text: String) -> String {
        Markup.escape(text, keepingLineBreaks: true)
    }
}
