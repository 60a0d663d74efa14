import HTTPCore

/// A `urlPathTemplate` such as `/api/vets/{id}`: literal segments and `{name}` variables,
/// each variable standing for one non-empty path segment (with optional literal text around
/// it inside the segment).
struct PathTemplate: Sendable, Hashable {
    enum Segment: Sendable, Hashable {
        case literal(String)
        case variable(name: String, prefix: String, suffix: String)
    }

    let text: String
    let segments: [Segment]

    init(_ text: String) throws(PatternError) {
        self.text = text
        guard text.hasPrefix("/") else { throw PatternError(pattern: text, reason: "a template must start with '/'") }
        var segments: [Segment] = []
        for part in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            guard let open = part.firstIndex(of: "{") else {
                if part.contains("}") { throw PatternError(pattern: text, reason: "'}' without '{' in '\(part)'") }
                segments.append(.literal(String(part)))
                continue
            }
            guard let close = part[open...].firstIndex(of: "}") else {
                throw PatternError(pattern: text, reason: "'{' without '}' in '\(part)'")
            }
            let name = String(part[part.index(after: open)..<close])
            let suffix = part[part.index(after: close)...]
            guard !name.isEmpty, !name.contains("{"), !suffix.contains("{"), !suffix.contains("}") else {
                throw PatternError(pattern: text, reason: "expected one '{name}' per segment, found '\(part)'")
            }
            segments.append(.variable(name: name, prefix: String(part[..<open]), suffix: String(suffix)))
        }
        self.segments = segments
    }

    /// The names of the variables, in order.
    var variableNames: [String] {
        segments.compactMap {
            if case .variable(let name, _, _) = $0 { return name }
            return nil
        }
    }

    /// The literal segments before the first variable (`/api/vets` for `/api/vets/{id}`),
    /// used to index templates; nil when the first segment is a variable.
    var literalPrefix: String? {
        var prefix = ""
        for segment in segments {
            guard case .literal(let text) = segment else { break }
            prefix += "/" + text
        }
        return prefix.isEmpty ? nil : prefix
    }

    /// The captured values (percent-decoded) when the path fits the template, else nil.
    func match(_ path: Substring) -> [String: String]? {
        guard path.first == "/" else { return nil }
        let parts = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == segments.count else { return nil }
        var values: [String: String] = [:]
        for (part, segment) in zip(parts, segments) {
            switch segment {
            case .literal(let text):
                guard part == text[...] else { return nil }
            case .variable(let name, let prefix, let suffix):
                guard part.count > prefix.count + suffix.count, part.hasPrefix(prefix), part.hasSuffix(suffix) else {
                    return nil
                }
                let raw = part.dropFirst(prefix.count).dropLast(suffix.count)
                values[name] = raw.removingPercentEncoding() ?? String(raw)
            }
        }
        return values
    }
}
