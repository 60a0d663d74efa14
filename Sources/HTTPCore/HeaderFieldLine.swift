extension UInt8 {
    /// Whether the byte is a `tchar` (RFC 9110 §5.6.2), a byte a field name or method may hold.
    public var isTokenCharacter: Bool {
        switch self {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }
}

extension HTTPHeaders.Field {
    /// Reads a field as a user writes it on a command line, `Name: value` (curl's `-H`):
    /// the name a token, the value without CR, LF or NUL, spaces around it dropped.
    ///
    /// ```swift
    /// try HTTPHeaders.Field(line: "Authorization: Bearer abc")   // name "Authorization", value "Bearer abc"
    /// ```
    public init(line: String) throws(HeaderFieldLineError) {
        guard let colon = line.firstIndex(of: ":") else { throw .noColon(line) }
        let name = String(line[..<colon])
        guard !name.isEmpty, name.utf8.allSatisfy(\.isTokenCharacter) else { throw .badName(name) }
        let value = String(line[line.index(after: colon)...].trimmingASCIISpaces())
        guard !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) else {
            throw .badValue(name)
        }
        self.init(name: name, value: value)
    }
}

/// Why a command-line header field was refused.
public enum HeaderFieldLineError: Error, Equatable, CustomStringConvertible {
    /// No `:` between name and value.
    case noColon(String)
    /// The name is empty or holds a byte a field name cannot (a space, say).
    case badName(String)
    /// The value holds CR, LF or NUL.
    case badValue(String)

    /// What was expected, as the end of "expected ...".
    public var description: String {
        switch self {
        case .noColon: "'Name: value'"
        case .badName: "'Name: value' with a name of letters, digits and !#$%&'*+-.^_`|~ only"
        case .badValue: "'Name: value' with no line break or NUL in the value"
        }
    }
}
