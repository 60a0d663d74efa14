import StubFormat

/// One distinct request and what the recorder keeps for it: its answers (one, or a
/// scenario's steps), where they are written, and whether the disk is up to date.
struct RecordingEntry: Sendable {
    /// The request's identity: method, URL, captured headers, body.
    let key: [UInt8]
    /// The file-name stem, unique among this recording's entries (`get-api-pets`).
    let slug: String
    /// `GET /api/pets`.
    let label: String
    /// The recorded answers, in order.
    var steps: [RecordedMapping]
    /// The mapping file, once chosen.
    var file: String?
    /// The `__files/` name chosen for each step's body, by step index.
    var bodyNames: [Int: String] = [:]
    /// Whether the file holds the latest steps.
    var isWritten = false

    /// The scenario name for repeats: WireMock's `scenario-...` convention, on the slug.
    var scenarioName: String { "scenario-\(slug)" }

    /// The steps' mappings; with more than one, chained as a scenario: the first answers in
    /// `Started` and moves to `NAME-2`, the second answers there and moves on, the last stays.
    var mappings: [StubMapping] {
        guard steps.count > 1 else { return steps.map(\.mapping) }
        return steps.enumerated().map { index, step in
            var mapping = step.mapping
            mapping.scenarioName = scenarioName
            mapping.requiredScenarioState = index == 0 ? ScenarioStore.startedState : "\(scenarioName)-\(index + 1)"
            mapping.newScenarioState = index + 1 < steps.count ? "\(scenarioName)-\(index + 2)" : nil
            return mapping
        }
    }

    /// A file-name stem for a request: method and URL in lower-case letters, digits and
    /// dashes (`GET /api/pets?limit=2` gives `get-api-pets-limit-2`), at most 80 characters.
    static func slug(method: String, url: String) -> String {
        var slug = ""
        for character in "\(method) \(url)".lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                slug.append(character)
            } else if !slug.isEmpty && !slug.hasSuffix("-") {
                slug.append("-")
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        slug = String(slug.prefix(80))
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug.isEmpty ? "request" : slug
    }
}
