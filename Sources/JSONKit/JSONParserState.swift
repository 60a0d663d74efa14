/// The cursor of one parse: recursive descent over the bytes, with the depth so far.
struct JSONParserState {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0
    var depth = 0
    /// Reused for strings with escapes, so each does not allocate its own buffer.
    var scratch: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count {
            throw error(.trailingCharacters, at: index, expected: "end of input after the JSON value")
        }
        return value
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw endsEarly(expected: "a JSON value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try parseLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try parseLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try parseLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber()
        default:
            let byte = bytes[index]
            if (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") {
                throw JSONParseError.at(
                    index, in: bytes, kind: .unexpectedCharacter, expected: "a JSON value",
                    found: "'\(JSONParserState.token(in: bytes, from: index))'")
            }
            throw error(.unexpectedCharacter, at: index, expected: "a JSON value")
        }
    }

    mutating func parseArray() throws(JSONParseError) -> JSONValue {
        let open = index
        try enterContainer(at: open)
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else {
                throw endsEarly(expected: "',' or ']' to close the array at offset \(open)")
            }
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: ",") { continue }
            if byte == UInt8(ascii: "]") { break }
            throw error(.unexpectedCharacter, at: index - 1, expected: "',' or ']' after an array element")
        }
        depth -= 1
        return .array(elements)
    }

    mutating func parseObject() throws(JSONParseError) -> JSONValue {
        let open = index
        try enterContainer(at: open)
        index += 1
        var members: [JSONMember] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(JSONObject(members))
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else {
                throw endsEarly(expected: members.isEmpty ? "a string key or '}'" : "a string key")
            }
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw error(
                    .unexpectedCharacter, at: index,
                    expected: members.isEmpty ? "a string key or '}'" : "a string key after ','")
            }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count else { throw endsEarly(expected: "':' after the key '\(key)'") }
            guard bytes[index] == UInt8(ascii: ":") else {
                throw error(.unexpectedCharacter, at: index, expected: "':' after the key '\(key)'")
            }
            index += 1
            let value = try parseValue()
            members.append(JSONMember(key: key, value: value))
            skipWhitespace()
            guard index < bytes.count else {
                throw endsEarly(expected: "',' or '}' to close the object at offset \(open)")
            }
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: ",") { continue }
            if byte == UInt8(ascii: "}") { break }
            throw error(.unexpectedCharacter, at: index - 1, expected: "',' or '}' after an object member")
        }
        depth -= 1
        return .object(JSONObject(members))
    }

    @inline(__always)
    mutating func enterContainer(at offset: Int) throws(JSONParseError) {
        depth += 1
        if depth > maxDepth {
            throw error(.tooDeep(limit: maxDepth), at: offset, expected: "at most \(maxDepth) nested levels")
        }
    }

    mutating func parseLiteral(_ word: StaticString) throws(JSONParseError) {
        let start = index
        let expected = word.withUTF8Buffer { Array($0) }
        for byte in expected {
            guard index < bytes.count else { throw endsEarly(expected: "'\(word)'") }
            guard bytes[index] == byte else {
                throw JSONParseError.at(
                    start, in: bytes, kind: .unexpectedCharacter, expected: "'\(word)'",
                    found: "'\(JSONParserState.token(in: bytes, from: start))'")
            }
            index += 1
        }
    }

    /// The run of letters and digits from `start`, at most 20 bytes, for messages.
    static func token(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> String {
        var end = start
        while end < bytes.count, end - start < 20 {
            let byte = bytes[end]
            let isWord =
                (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x2E
                || byte == 0x2D || byte == 0x2B
            if !isWord { break }
            end += 1
        }
        if end == start { end = start + 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<min(end, bytes.count)]), as: UTF8.self)
    }

    func endsEarly(expected: String) -> JSONParseError {
        JSONParseError.at(bytes.count, in: bytes, kind: .endsEarly, expected: expected, found: "end of input")
    }

    func error(_ kind: JSONParseError.Kind, at offset: Int, expected: String) -> JSONParseError {
        JSONParseError.at(
            offset, in: bytes, kind: kind, expected: expected, found: JSONParseError.describeByte(at: offset, in: bytes)
        )
    }
}

extension JSONParseError {
    /// An error at `offset`, with its line and column worked out from the bytes before it.
    static func at(
        _ offset: Int, in bytes: UnsafeBufferPointer<UInt8>, kind: Kind, expected: String, found: String
    ) -> JSONParseError {
        var line = 1
        var column = 1
        var index = 0
        while index < offset && index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return JSONParseError(kind: kind, offset: offset, line: line, column: column, expected: expected, found: found)
    }

    /// The byte at `offset` as a message shows it: `'x'`, `byte 0x1F`, `end of input`.
    static func describeByte(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard offset < bytes.count else { return "end of input" }
        let byte = bytes[offset]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x\(hex.count == 1 ? "0" + hex : hex)"
    }
}
