extension UInt8 {
    /// Whether the byte is a `tchar` (RFC 9110 §5.6.2), a byte a field name or method may hold:
    /// a letter, a digit or one of ``tokenSymbols``. Inlinable and a bit test, as every byte of
    /// every field name read or sent is asked.
    @inlinable
    package var isTokenCharacter: Bool {
        // Bit `b % 64` of word `b / 64` is set for each tchar `b` (none is above 127).
        switch self >> 6 {
        case 0: (0x03FF_6CFA_0000_0000 as UInt64) >> UInt64(self & 63) & 1 == 1
        case 1: (0x57FF_FFFF_C7FF_FFFE as UInt64) >> UInt64(self & 63) & 1 == 1
        default: false
        }
    }

    /// The symbols a token may hold besides letters and digits.
    package static let tokenSymbols = "!#$%&'*+-.^_`|~"
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
