/// A regular expression compiled once at load, matched against whole strings as Java's
/// `String.matches` (and so WireMock) does, with a literal prefix to rule out most candidates
/// before running it.
final class CompiledRegex: @unchecked Sendable {
    // Safe to share: `Regex` is not declared Sendable because its output type may not be, and
    // because it compiles its program lazily on first use. The output here is the type-erased
    // match, never shared, and `init` runs one match before the object is published, so every
    // later use only reads the built program.
    private let regex: Regex<AnyRegexOutput>
    /// The expression as written.
    let pattern: String
    /// Text every match must start with (possibly empty).
    let literalPrefix: String

    /// Compiles `pattern`, or throws the parser's message.
    init(_ pattern: String) throws(PatternError) {
        do {
            regex = try Regex(pattern)
        } catch {
            throw PatternError(pattern: pattern, reason: "\(error)")
        }
        self.pattern = pattern
        literalPrefix = Self.literalPrefix(of: pattern)
        _ = try? regex.wholeMatch(in: "")
    }

    /// Whether the whole text matches.
    func wholeMatches<S: StringProtocol>(_ text: S) -> Bool where S.SubSequence == Substring {
        if !literalPrefix.isEmpty && !text.hasPrefix(literalPrefix) { return false }
        return (try? regex.wholeMatch(in: Substring(text))) != nil
    }

    /// The characters a whole match must begin with: the leading run of plain characters,
    /// minus the last one when a quantifier follows it; empty when the pattern has a top-level
    /// alternation or starts with anything else.
    static func literalPrefix(of pattern: String) -> String {
        if pattern.contains("|") { return "" }
        var prefix: [Character] = []
        var characters = Array(pattern)
        if characters.first == "^" { characters.removeFirst() }
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if "\\.[]()*+?{}^$|".contains(character) {
                if "*?{".contains(character) && !prefix.isEmpty { prefix.removeLast() }
                break
            }
            prefix.append(character)
            index += 1
        }
        return String(prefix)
    }
}

/// A pattern (regular expression, JSONPath or URL template) that does not compile.
struct PatternError: Error, Sendable, Hashable, CustomStringConvertible {
    let pattern: String
    let reason: String

    var description: String { reason }
}
