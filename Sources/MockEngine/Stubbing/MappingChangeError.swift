import StubFormat

/// Why the store refused an admin change to a mapping.
enum MappingChangeError: Error, Sendable {
    /// The new mapping has errors.
    case invalid([StubProblem])
    /// The mapping's file could not be rewritten or removed; nothing changed.
    case fileNotChanged(path: String, reason: String)
}
