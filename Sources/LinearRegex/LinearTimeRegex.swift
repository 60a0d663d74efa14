/// A regular expression in Java's syntax (as WireMock and Jayway's JSONPath read them),
/// matched against whole strings as `String.matches` does, in time linear in the text: a
/// Thompson NFA simulation (``RegexProgram``), and for long texts a lazily built automaton
/// (``RegexDFA``). Whatever a stub author or a contract writes, a match cannot take
/// exponential time; what needs backtracking (backreferences, lookaround, atomic groups,
/// possessive quantifiers on groups) is refused when the pattern is compiled.
///
/// ```swift
/// let regex = try LinearTimeRegex("/redos/(a+)+$")
/// regex.wholeMatches("/redos/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!")   // false, at once
/// ```
package final class LinearTimeRegex: Sendable {
    let program: RegexProgram
    /// The expression as written.
    package let pattern: String
    /// Text every match must start with (possibly empty).
    package let literalPrefix: String
    /// ``literalPrefix``'s UTF-8, compared with a contiguous text's bytes directly.
    private let literalPrefixBytes: [UInt8]
    /// A literal every match contains (possibly empty).
    private let requiredLiteral: ByteSearch
    /// Whether the pattern is its literal prefix then `.*` (as `/api/.*`, the most common URL
    /// pattern): then a text matches when it starts with the prefix and the rest holds no line
    /// terminator (what `.` does not match), which is checked on the bytes, with no program.
    let isPrefixThenAnyLine: Bool
    /// The pattern after ``literalPrefix``, compiled on its own when it has no assertions (so
    /// where it starts does not matter): a text that starts with the prefix is matched from
    /// there, and the prefix's characters are not run through the program again.
    let afterPrefix: RegexProgram?
    /// How many Unicode scalars ``literalPrefix`` has.
    private let prefixScalars: Int
    /// Why a backtracking engine (Java's, so WireMock's) could take exponential time on this
    /// pattern, when it could: callers report it as a warning.
    package let backtrackingWarning: String?

    /// Compiles `pattern`, or throws what is wrong with it (or what is refused in it).
    package init(_ pattern: String) throws(RegexError) {
        var parser = RegexParser(pattern)
        let node = try parser.parse()
        program = try RegexProgram(node, classes: parser.classes, pattern: pattern)
        self.pattern = pattern
        literalPrefix = Self.literalPrefix(of: pattern)
        literalPrefixBytes = Array(literalPrefix.utf8)
        let body = pattern.hasPrefix("^") ? pattern.dropFirst() : Substring(pattern)
        isPrefixThenAnyLine = body == literalPrefix + ".*" || body == literalPrefix + ".*$"
        afterPrefix = Self.programAfter(prefix: literalPrefix, in: body)
        prefixScalars = literalPrefix.unicodeScalars.count
        var literal = String.UnicodeScalarView()
        literal.append(contentsOf: node.requiredLiteral.compactMap(Unicode.Scalar.init))
        requiredLiteral = ByteSearch(String(literal))
        backtrackingWarning =
            node.hasNestedQuantifier()
            ? "nested quantifier: matches in linear time in petmock, but backtracks catastrophically in "
                + "WireMock/Java on a long near miss" : nil
    }

    /// Whether the whole text matches.
    package func wholeMatches<S: StringProtocol>(_ text: S) -> Bool { matchesWhole(text) }

    /// Whether the whole text matches (a request's path or target: matched by code
    /// specialised for `Substring`, not through the generic entry's witness tables).
    package func wholeMatches(_ text: Substring) -> Bool { matchesWhole(text) }

    /// Whether the whole text matches (specialised for `String`).
    package func wholeMatches(_ text: String) -> Bool { matchesWhole(text) }

    @inline(__always)
    private func matchesWhole<S: StringProtocol>(_ text: S) -> Bool {
        if !literalPrefixBytes.isEmpty && !hasLiteralPrefix(text) { return false }
        if isPrefixThenAnyLine,
            let matched = text.utf8.withContiguousStorageIfAvailable({ bytes in
                !Self.holdsLineTerminator(UnsafeBufferPointer(rebasing: bytes[literalPrefixBytes.count...]))
            })
        {
            return matched
        }
        if !requiredLiteral.occurs(in: text.utf8) { return false }
        if program.isAssertionFree && text.utf8.count >= Self.automatonThreshold,
            let matched = text.utf8.withContiguousStorageIfAvailable({ bytes in
                var automaton = RegexDFA(program)
                return automaton.wholeMatches(bytes)
            })
        {
            return matched
        }
        if let afterPrefix {
            return afterPrefix.wholeMatches(text.unicodeScalars.dropFirst(prefixScalars))
        }
        return program.wholeMatches(text.unicodeScalars)
    }

    /// The program of what follows `prefix` in `body` (the pattern without a leading `^`),
    /// when that part compiles alone and asserts nothing about where it stands.
    private static func programAfter(prefix: String, in body: Substring) -> RegexProgram? {
        guard !prefix.isEmpty, body.hasPrefix(prefix) else { return nil }
        let rest = String(body.dropFirst(prefix.count))
        // A leading `^` reads as the start of the text when the rest is compiled alone; after
        // the prefix it can never match, which only the whole program says.
        guard !rest.hasPrefix("^") else { return nil }
        var parser = RegexParser(rest)
        guard let node = try? parser.parse(),
            let program = try? RegexProgram(node, classes: parser.classes, pattern: rest),
            program.isAssertionFree
        else { return nil }
        return program
    }

    /// Whether `text` starts with ``literalPrefix``: on contiguous UTF-8 (the usual text) by
    /// its bytes, with no generic iteration.
    private func hasLiteralPrefix<S: StringProtocol>(_ text: S) -> Bool {
        let prefix = literalPrefixBytes
        if let found = text.utf8.withContiguousStorageIfAvailable({ bytes in
            bytes.count >= prefix.count && UnsafeBufferPointer(rebasing: bytes[..<prefix.count]).elementsEqual(prefix)
        }) {
            return found
        }
        return text.utf8.starts(with: prefix)
    }

    /// Whether UTF-8 `bytes` hold one of Java's line terminators: `\n`, `\r`, U+0085,
    /// U+2028, U+2029.
    static func holdsLineTerminator(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case 0x0A, 0x0D: return true
            case 0xC2 where index + 1 < bytes.count && bytes[index + 1] == 0x85: return true
            case 0xE2
            where index + 2 < bytes.count && bytes[index + 1] == 0x80
                && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                return true
            default: index += 1
            }
        }
        return false
    }

    /// Texts of at least this many bytes are matched by a ``RegexDFA`` (when the program has
    /// no assertions): building its states pays off only over a long text.
    static let automatonThreshold = 256
    /// The characters a whole match must begin with: the leading run of plain characters,
    /// minus the last one when a quantifier follows it; empty when the pattern has a top-level
    /// alternation or starts with anything else.
    /// Read by Unicode scalar, as the pattern is compiled: a combining mark after `(` is not
    /// one character with it.
    package static func literalPrefix(of pattern: String) -> String {
        if pattern.unicodeScalars.contains("|") { return "" }
        var prefix = String.UnicodeScalarView()
        var scalars = Array(pattern.unicodeScalars)
        if scalars.first == "^" { scalars.removeFirst() }
        for scalar in scalars {
            if "\\.[]()*+?{}^$|".unicodeScalars.contains(scalar) {
                if "*?{".unicodeScalars.contains(scalar) && !prefix.isEmpty { prefix.removeLast() }
                break
            }
            prefix.append(scalar)
        }
        return String(prefix)
    }
}

/// A pattern that does not compile, or that needs what linear-time matching cannot do.
package struct RegexError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    package let pattern: String
    /// What is wrong, with the offset where it is.
    package let reason: String

    /// Creates an error.
    package init(pattern: String, reason: String) {
        self.pattern = pattern
        self.reason = reason
    }

    package var description: String { reason }
}

extension LinearTimeRegex {
    /// The first match in `text`: the leftmost, and the longest starting there (Java's
    /// `find()` prefers by its quantifiers' greed, which gives the same for most patterns).
    /// Linear in the text.
    /// The pattern's anchors hold here as in Java (`^abc` is not found in `xabc`): the search
    /// runs a program compiled for it, which keeps the anchors the whole-match program drops.
    package func firstMatch(in text: String) -> Substring? {
        var parser = RegexParser(pattern)
        // The pattern compiled when this regex was made, so it compiles again.
        guard let node = try? parser.parse(),
            let search = try? RegexProgram(node, classes: parser.classes, pattern: pattern, trimmingAnchors: false)
        else { return nil }
        let scalars = Array(text.unicodeScalars)
        guard let range = search.firstMatch(scalars) else { return nil }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars[range])
        return Substring(String(result))
    }
}
