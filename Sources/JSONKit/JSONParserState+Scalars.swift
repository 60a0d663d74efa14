extension JSONParserState {
    /// Parses a string starting at its opening quote.
    mutating func parseString() throws(JSONParseError) -> String {
        let open = index
        let start = index + 1
        // The plain run up to the first quote, backslash or control character: a local index
        // and one table look-up a byte, the bytes or-ed to learn whether all are ASCII.
        var end = start
        var high: UInt8 = 0
        let count = bytes.count
        Self.stringStops.withUnsafeBufferPointer { stops in
            while end < count {
                let byte = bytes[end]
                if stops[Int(byte)] { break }
                high |= byte
                end += 1
            }
        }
        index = end
        guard end < count else { throw endsEarly(expected: "'\"' to close the string at offset \(open)") }
        switch bytes[end] {
        case UInt8(ascii: "\""):
            let text = try makeString(UnsafeBufferPointer(rebasing: bytes[start..<end]), ascii: high < 0x80, at: start)
            index = end + 1
            return text
        case UInt8(ascii: "\\"):
            return try parseEscapedString(open: open, start: start)
        default:
            throw error(.controlCharacterInString, at: end, expected: "a character or escape inside the string")
        }
    }

    /// The bytes that end a string's plain run: the quote, the backslash and the control
    /// characters.
    private static let stringStops: [Bool] = (0...255).map {
        $0 < 0x20 || $0 == Int(UInt8(ascii: "\"")) || $0 == Int(UInt8(ascii: "\\"))
    }

    /// The slow path: copies into `scratch` while decoding escapes.
    private mutating func parseEscapedString(open: Int, start: Int) throws(JSONParseError) -> String {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        var ascii = !scratch.contains { $0 >= 0x80 }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                let raw = scratch
                return try raw.withUnsafeBufferPointer { buffer throws(JSONParseError) in
                    try makeString(buffer, ascii: ascii, at: start)
                }
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw endsEarly(expected: "an escape after '\\'") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(escape)
                case UInt8(ascii: "b"): scratch.append(0x08)
                case UInt8(ascii: "f"): scratch.append(0x0C)
                case UInt8(ascii: "n"): scratch.append(0x0A)
                case UInt8(ascii: "r"): scratch.append(0x0D)
                case UInt8(ascii: "t"): scratch.append(0x09)
                case UInt8(ascii: "u"):
                    let scalar = try parseUnicodeEscape()
                    if scalar.value >= 0x80 { ascii = false }
                    appendUTF8(scalar)
                default:
                    throw error(
                        .invalidEscape, at: index - 1,
                        expected: "one of '\"', '\\', '/', 'b', 'f', 'n', 'r', 't', 'u' after '\\'")
                }
            default:
                if byte < 0x20 {
                    throw error(
                        .controlCharacterInString, at: index, expected: "a character or escape inside the string")
                }
                if byte >= 0x80 { ascii = false }
                scratch.append(byte)
                index += 1
            }
        }
        throw endsEarly(expected: "'\"' to close the string at offset \(open)")
    }

    /// Reads the four hex digits after `\u` (and a low surrogate's escape when needed).
    private mutating func parseUnicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
        let escapeStart = index - 2
        let high = try parseHex4()
        if high >= 0xDC00 && high <= 0xDFFF {
            throw error(.invalidEscape, at: escapeStart, expected: "a high surrogate before a low surrogate")
        }
        if high >= 0xD800 && high <= 0xDBFF {
            guard index + 1 < bytes.count else {
                throw endsEarly(expected: "a '\\u' low surrogate after the high surrogate")
            }
            guard bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw error(.invalidEscape, at: index, expected: "a '\\u' low surrogate after the high surrogate")
            }
            index += 2
            let low = try parseHex4()
            guard low >= 0xDC00 && low <= 0xDFFF else {
                throw error(.invalidEscape, at: index - 6, expected: "a low surrogate (DC00 to DFFF)")
            }
            let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            return Unicode.Scalar(value) ?? "\u{FFFD}"
        }
        return Unicode.Scalar(high) ?? "\u{FFFD}"
    }

    private mutating func appendUTF8(_ scalar: Unicode.Scalar) {
        let value = scalar.value
        switch value {
        case 0..<0x80:
            scratch.append(UInt8(value))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | value >> 6))
            scratch.append(UInt8(0x80 | value & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | value >> 12))
            scratch.append(UInt8(0x80 | value >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | value & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | value >> 18))
            scratch.append(UInt8(0x80 | value >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | value >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | value & 0x3F))
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw endsEarly(expected: "four hex digits after '\\u'") }
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - 0x30)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - 0x61 + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - 0x41 + 10)
            default: throw error(.invalidEscape, at: index, expected: "a hex digit in a '\\u' escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// Builds a string from raw bytes, checking UTF-8 unless they are all ASCII.
    private func makeString(
        _ raw: UnsafeBufferPointer<UInt8>, ascii: Bool, at start: Int
    ) throws(JSONParseError) -> String {
        if ascii { return String(decoding: raw, as: UTF8.self) }
        if let text = String(validating: raw, as: UTF8.self) { return text }
        let bad = JSONParserState.firstInvalidUTF8(in: bytes, from: start) ?? start
        throw error(.invalidUTF8, at: bad, expected: "valid UTF-8 inside the string")
    }

    /// The offset of the first byte that breaks UTF-8 from `start` to the next quote.
    static func firstInvalidUTF8(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { return nil }
            let length: Int
            var minimum: UInt32 = 0
            var scalar: UInt32
            switch byte {
            case 0x00..<0x80:
                index += 1
                continue
            case 0xC2...0xDF:
                length = 2
                scalar = UInt32(byte & 0x1F)
                minimum = 0x80
            case 0xE0...0xEF:
                length = 3
                scalar = UInt32(byte & 0x0F)
                minimum = 0x800
            case 0xF0...0xF4:
                length = 4
                scalar = UInt32(byte & 0x07)
                minimum = 0x10000
            default: return index
            }
            for offset in 1..<length {
                guard index + offset < bytes.count, bytes[index + offset] & 0xC0 == 0x80 else { return index }
                scalar = scalar << 6 | UInt32(bytes[index + offset] & 0x3F)
            }
            if scalar < minimum || scalar > 0x10FFFF || (scalar >= 0xD800 && scalar <= 0xDFFF) { return index }
            index += length
        }
        return nil
    }

    /// Parses a number: an `Int64` when it is a plain integer that fits, else its text.
    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        var negative = false
        if bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        guard index < bytes.count else { throw endsEarly(expected: "a digit after '-'") }
        var magnitude: UInt64 = 0
        var overflow = false
        let first = bytes[index]
        if first == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw error(.invalidNumber, at: index, expected: "'.', 'e' or the end of the number after a leading 0")
            }
        } else if isDigit(first) {
            while index < bytes.count, isDigit(bytes[index]) {
                let digit = UInt64(bytes[index] - 0x30)
                let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(digit)
                magnitude = sum
                overflow = overflow || o1 || o2
                index += 1
            }
        } else {
            throw error(.invalidNumber, at: index, expected: "a digit after '-'")
        }
        var integral = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            integral = false
            index += 1
            try requireDigits(after: "'.'")
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            integral = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            try requireDigits(after: "the exponent")
        }
        if integral && !overflow {
            if !negative, magnitude <= UInt64(Int64.max) { return .int(Int64(magnitude)) }
            if negative, magnitude != 0, magnitude <= UInt64(Int64.max) + 1 {
                return .int(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude))
            }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        return .number(JSONNumber(validatedText: text))
    }

    private mutating func requireDigits(after what: String) throws(JSONParseError) {
        guard index < bytes.count else { throw endsEarly(expected: "a digit after \(what)") }
        guard isDigit(bytes[index]) else { throw error(.invalidNumber, at: index, expected: "a digit after \(what)") }
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= 0x30 && byte <= 0x39
    }
}
