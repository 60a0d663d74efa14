import StubFormat

/// A mapping that was not loaded because it has errors, but whose request pattern compiles: a
/// 404 for a request it would have matched names its file, so its author looks at the mapping
/// and not at the request.
struct RefusedStub: Sendable {
    /// The mapping, as much of it as decoded.
    let mapping: StubMapping
    /// Its file.
    let file: String
    /// Its request pattern, ready to match.
    let pattern: CompiledRequestPattern

    /// The refused mapping's request pattern, when it names a URL (a pattern with none would
    /// match every request, which says nothing) and compiles.
    static func make(_ mapping: StubMapping, file: String) -> RefusedStub? {
        guard mapping.request.url != nil else { return nil }
        var problems: [PatternProblem] = []
        guard let pattern = CompiledRequestPattern.compile(mapping.request, problems: &problems) else { return nil }
        return RefusedStub(mapping: mapping, file: file, pattern: pattern)
    }

    /// `'NAME' (mappings/FILE.json)` (``StubLabel``).
    var label: String { StubLabel.label(mapping, file: file) }
}
