/// Why bytes are not JSON, and where: byte offset, line and column (both from 1), what the
/// parser expected and what it found.
///
/// ```
/// line 3, column 14 (offset 57): expected ',' or '}' after an object member, found '"'
/// JSON ends early at line 1, column 40 (offset 39): expected ']' to close the array at offset 0
/// ```
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is; tests and callers branch on this.
    public enum Kind: Sendable, Hashable {
        /// The input ended before the value was complete: truncated JSON.
        case endsEarly
        /// A byte that cannot start or continue a value here.
        case unexpectedCharacter
        /// A number that breaks JSON's grammar (`01`, `1.`, `-`, `1e`).
        case invalidNumber
        /// A backslash escape JSON does not have, or a bad `\u` escape or surrogate pair.
        case invalidEscape
        /// A raw control character (below U+0020) inside a string.
        case controlCharacterInString
        /// Bytes that are not valid UTF-8 inside a string.
        case invalidUTF8
        /// Arrays and objects nested deeper than the parser's limit.
        case tooDeep(limit: Int)
        /// Something other than white space after the value.
        case trailingCharacters
    }

    /// The kind of problem.
    public let kind: Kind
    /// The offset of the offending byte (or of the end of input), from 0.
    public let offset: Int
    /// The line of `offset`, from 1.
    public let line: Int
    /// The column of `offset` in characters, from 1.
    public let column: Int
    /// What would have been valid here.
    public let expected: String
    /// What was there instead, quoted (`'x'`, `byte 0x1F`, `end of input`).
    public let found: String

    /// Creates an error.
    public init(kind: Kind, offset: Int, line: Int, column: Int, expected: String, found: String) {
        self.kind = kind
        self.offset = offset
        self.line = line
        self.column = column
        self.expected = expected
        self.found = found
    }

    /// Whether the input was cut short (as opposed to containing something wrong).
    public var isTruncation: Bool {
        kind == .endsEarly
    }

    /// Where the problem is, for messages: `line 3, column 14 (offset 57)`.
    public var location: String {
        "line \(line), column \(column) (offset \(offset))"
    }

    public var description: String {
        switch kind {
        case .endsEarly: "JSON ends early at \(location): expected \(expected)"
        case .tooDeep(let limit):
            "\(location): nesting deeper than \(limit) levels: expected \(expected), found \(found)"
        default: "\(location): expected \(expected), found \(found)"
        }
    }
}
