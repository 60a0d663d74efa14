/// A recursive-descent JSON parser over bytes for ``JSONTree``, with a nesting limit so a
/// hostile body cannot exhaust the stack.
struct JSONTreeParser {
    static let maxDepth = 512

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONTree {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count { throw error("unexpected '\(character(bytes[index]))' after the value") }
        return value
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONTree {
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try nested { parser throws(JSONSyntaxError) in try parser.parseObject() }
        case UInt8(ascii: "["): return try nested { parser throws(JSONSyntaxError) in try parser.parseArray() }
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected '\(character(bytes[index]))'")
        }
    }

    private mutating func nested(
        _ body: (inout JSONTreeParser) throws(JSONSyntaxError) -> JSONTree
    )
        throws(JSONSyntaxError) -> JSONTree
    {
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maxDepth { throw error("nesting deeper than \(Self.maxDepth) levels") }
        return try body(&self)
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONTree {
        index += 1
        var members: [JSONTree.Member] = []
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return .object(members) }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else { throw expected("a string key") }
            let key = try parseString()
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { throw expected("':'") }
            skipWhitespace()
            members.append(JSONTree.Member(key: key, value: try parseValue()))
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { return .object(members) }
            guard consume(UInt8(ascii: ",")) else { throw expected("',' or '}'") }
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONTree {
        index += 1
        var items: [JSONTree] = []
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return .array(items) }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            if consume(UInt8(ascii: "]")) { return .array(items) }
            guard consume(UInt8(ascii: ",")) else { throw expected("',' or ']'") }
        }
    }

    /// Whether `byte` is next.
    private func peek(_ byte: UInt8) -> Bool {
        index < bytes.count && bytes[index] == byte
    }

    /// Consumes `byte` when it is next.
    private mutating func consume(_ byte: UInt8) -> Bool {
        guard peek(byte) else { return false }
        index += 1
        return true
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
                return String(scalars)
            case UInt8(ascii: "\\"):
                scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
                run = []
                scalars.append(try parseEscape())
            case 0..<0x20:
                throw error("control character in a string")
            default:
                run.append(byte)
                index += 1
            }
        }
        throw error("unexpected end of input in a string")
    }

    private mutating func parseEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        index += 1
        guard index < bytes.count else { throw error("unexpected end of input in a string") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try parseHex4()
            if (0xD800..<0xDC00).contains(high), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                bytes[index + 1] == UInt8(ascii: "u")
            {
                index += 2
                let low = try parseHex4()
                if (0xDC00..<0xE000).contains(low),
                    let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                {
                    return scalar
                }
            }
            // A lone surrogate decodes to the replacement character, as JSONDecoder does not reject it here.
            return Unicode.Scalar(high) ?? "\u{FFFD}"
        default:
            index -= 1
            throw error("invalid escape '\\\(character(byte))'")
        }
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw error("unexpected end of input in a \\u escape") }
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit '\(character(byte))' in a \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONTree {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard digits() > 0 else { throw error("a number needs digits") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("a number needs digits after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits() > 0 else { throw error("a number needs digits in its exponent") }
        }
        return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    private mutating func literal(_ word: String, _ value: JSONTree) throws(JSONSyntaxError) -> JSONTree {
        for byte in word.utf8 {
            guard index < bytes.count else { throw error("unexpected end of input") }
            guard bytes[index] == byte else { throw error("unexpected '\(character(bytes[index]))'") }
            index += 1
        }
        return value
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): index += 1
            default: return
            }
        }
    }

    private func expected(_ what: String) -> JSONSyntaxError {
        guard index < bytes.count else { return error("expected \(what), found end of input") }
        return error("expected \(what), found '\(character(bytes[index]))'")
    }

    private func character(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "\\u{\(String(byte, radix: 16))}"
    }

    /// An error at the current position, counting lines and columns from 1.
    private func error(_ problem: String) -> JSONSyntaxError {
        var line = 1
        var column = 1
        for byte in bytes[..<min(index, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return JSONSyntaxError(problem: problem, line: line, column: column)
    }
}
