import LinearRegex

/// A stub's regular expression: ``LinearTimeRegex`` (Java's syntax, whole-string matching as
/// WireMock does, linear time), with its errors as the loader's ``PatternError``s.
typealias CompiledRegex = LinearTimeRegex

extension LinearTimeRegex {
    /// Compiles a stub's pattern; what is wrong is a ``PatternError`` naming it.
    static func compiled(_ pattern: String) throws(PatternError) -> LinearTimeRegex {
        do {
            return try LinearTimeRegex(pattern)
        } catch {
            throw PatternError(pattern: error.pattern, reason: error.reason)
        }
    }
}

/// A pattern (regular expression, JSONPath or URL template) that does not compile.
struct PatternError: Error, Sendable, Hashable, CustomStringConvertible {
    let pattern: String
    let reason: String

    var description: String { reason }
}
