/// An OpenAPI path template (`/items/{id}`) split into segments, matched against request paths.
struct PathTemplate: Sendable, Hashable {
    enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter
    }

    let text: String
    let segments: [Segment]

    init(_ text: String) {
        self.text = text
        segments = text.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? .parameter : .literal(String(part))
        }
    }

    /// Whether a request path (below the mount point, without the query) fits the template.
    func matches(_ parts: [Substring]) -> Bool {
        guard parts.count == segments.count else { return false }
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .parameter: if part.isEmpty { return false }
            case .literal(let literal): if literal != part { return false }
            }
        }
        return true
    }

    /// How many literal segments it has: a literal match wins over a parameter (`/items/new`
    /// before `/items/{id}`).
    var literalCount: Int {
        segments.count { if case .literal = $0 { true } else { false } }
    }
}
