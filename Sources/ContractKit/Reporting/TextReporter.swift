import APISchema

/// Compiler-style text:
///
/// ```
/// GET /pets $[0].vetId: error: 'vetId' is missing and 'practitionerId' appeared ... [response-property-probably-renamed]
///   expected: 'vetId' (integer or null)
///   found: 'practitionerId': 1
///   swift: PetJsonModel.vetId: Int?
///   at: http://127.0.0.1:8080/api/pets (200), 4 occurrences, first shown
///   hint: rename 'vetId' to 'practitionerId' in the model's CodingKeys, or fix the API
/// ```
struct TextReporter {
    let color: Bool

    private func paint(_ text: String, _ code: String) -> String {
        color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    private func levelWord(_ level: FindingLevel) -> String {
        switch level {
        case .breaking: paint("error", "1;31")
        case .warning: paint("warning", "1;33")
        case .info: paint("note", "1;36")
        }
    }

    func render(_ report: VerificationReport) -> String {
        var lines: [String] = []
        for finding in report.findings {
            let location = paint("\(finding.operation) \(finding.path)", "1")
            lines.append("\(location): \(levelWord(finding.level)): \(finding.message) [\(finding.id.rawValue)]")
            lines.append("  expected: \(finding.expected)")
            lines.append("  found: \(finding.actual)")
            if let swift = finding.swift { lines.append("  swift: \(swift)") }
            var place: [String] = []
            if let url = finding.url { place.append(url + (finding.status.map { " (\($0))" } ?? "")) }
            if finding.count > 1 { place.append("\(finding.count) occurrences, first shown") }
            if !place.isEmpty { lines.append("  at: " + place.joined(separator: ", ")) }
            if let hint = finding.hint { lines.append("  hint: \(hint)") }
        }
        for error in report.errors {
            let location = paint(error.operation, "1")
            let url = error.url.map { " [\($0)]" } ?? ""
            lines.append("\(location): \(levelWord(.breaking)): could not verify: \(error.message)\(url)")
        }
        for skipped in report.skipped {
            lines.append("\(paint(skipped.operation, "1")): \(paint("note", "1;36")): skipped: \(skipped.reason)")
        }
        for note in report.notes {
            lines.append("\(paint("note", "1;36")): \(note)")
        }
        var tail = report.summaryLine
        switch report.decodeCheck {
        case .none?: tail += "; schema only: no Codable models, so the decode check did not run"
        case .partial(let types)?:
            tail +=
                "; the decode check did not run for \(types.joined(separator: ", ")) (no Codable model: schema only)"
        case .full?, nil: break
        }
        if !lines.isEmpty { lines.append("") }
        lines.append(tail)
        return lines.joined(separator: "\n") + "\n"
    }
}
