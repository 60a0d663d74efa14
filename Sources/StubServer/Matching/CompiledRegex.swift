/// A regular expression compiled once at load, matched against whole strings as Java's
/// `String.matches` (and so WireMock) does, in time linear in the text (``RegexProgram``):
/// a stub's pattern cannot wedge an event loop, however it is written. A literal prefix and
/// a literal every match contains rule out most candidates before the program runs.
final class CompiledRegex: Sendable {
    let program: RegexProgram
    /// The expression as written.
    let pattern: String
    /// Text every match must start with (possibly empty).
    let literalPrefix: String
    /// A literal every match contains (possibly empty).
    private let requiredLiteral: ByteSearch
    /// Why a backtracking engine (WireMock's) could take exponential time on this pattern,
    /// when it could: petmock reports it as a warning.
    let backtrackingWarning: String?

    /// Compiles `pattern`, or throws what is wrong with it (or what petmock refuses in it).
    init(_ pattern: String) throws(PatternError) {
        var parser = RegexParser(pattern)
        let node = try parser.parse()
        program = try RegexProgram(node, classes: parser.classes, pattern: pattern)
        self.pattern = pattern
        literalPrefix = Self.literalPrefix(of: pattern)
        var literal = String.UnicodeScalarView()
        literal.append(contentsOf: node.requiredLiteral.compactMap(Unicode.Scalar.init))
        requiredLiteral = ByteSearch(String(literal))
        backtrackingWarning =
            node.hasNestedQuantifier()
            ? "nested quantifier: matches in linear time in petmock, but backtracks catastrophically in "
                + "WireMock/Java on a long near miss" : nil
    }

    /// Whether the whole text matches.
    func wholeMatches<S: StringProtocol>(_ text: S) -> Bool {
        if !literalPrefix.isEmpty && !text.utf8.starts(with: literalPrefix.utf8) { return false }
        if !requiredLiteral.occurs(in: text.utf8) { return false }
        if program.isAssertionFree && text.utf8.count >= Self.automatonThreshold,
            let matched = text.utf8.withContiguousStorageIfAvailable({ bytes in
                var automaton = RegexDFA(program)
                return automaton.wholeMatches(bytes)
            })
        {
            return matched
        }
        return program.wholeMatches(text.unicodeScalars)
    }

    /// Texts of at least this many bytes are matched by a ``RegexDFA`` (when the program has
    /// no assertions): building its states pays off only over a long text.
    static let automatonThreshold = 256

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
