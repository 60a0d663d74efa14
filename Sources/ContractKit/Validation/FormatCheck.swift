/// Checks of the string formats a reflected contract uses; unknown formats always pass.
enum FormatCheck {
    static func matches(_ text: String, format: String) -> Bool {
        switch format {
        case "date-time": isDateTime(Array(text.utf8))
        case "date": isDate(Array(text.utf8), from: 0) && text.utf8.count == 10
        case "uri": isURI(text)
        case "uuid": isUUID(Array(text.utf8))
        case "byte": isBase64(Array(text.utf8))
        default: true
        }
    }

    private static func digits(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
        range.upperBound <= bytes.count && bytes[range].allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    private static func isDate(_ bytes: [UInt8], from start: Int) -> Bool {
        digits(bytes, start..<start + 4) && start + 10 <= bytes.count && bytes[start + 4] == UInt8(ascii: "-")
            && digits(bytes, start + 5..<start + 7) && bytes[start + 7] == UInt8(ascii: "-")
            && digits(bytes, start + 8..<start + 10)
    }

    /// RFC 3339 `date-time`: `2024-05-01T12:30:00Z`, fractional seconds and offsets allowed.
    private static func isDateTime(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 20, isDate(bytes, from: 0), bytes[10] | 0x20 == UInt8(ascii: "t"),
            digits(bytes, 11..<13), bytes[13] == UInt8(ascii: ":"), digits(bytes, 14..<16),
            bytes[16] == UInt8(ascii: ":"),
            digits(bytes, 17..<19)
        else { return false }
        var index = 19
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            if index == start { return false }
        }
        guard index < bytes.count else { return false }
        if bytes[index] | 0x20 == UInt8(ascii: "z") { return index + 1 == bytes.count }
        guard bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") else { return false }
        return index + 6 == bytes.count && digits(bytes, index + 1..<index + 3) && bytes[index + 3] == UInt8(ascii: ":")
            && digits(bytes, index + 4..<index + 6)
    }

    private static func isURI(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return false }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
            && !text.contains(" ")
    }

    private static func isUUID(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                if byte != UInt8(ascii: "-") { return false }
            } else if !((byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66)) {
                return false
            }
        }
        return true
    }

    private static func isBase64(_ bytes: [UInt8]) -> Bool {
        guard bytes.count % 4 == 0 else { return false }
        for (index, byte) in bytes.enumerated() {
            let isAlphabet =
                (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2B
                || byte == 0x2F
            if isAlphabet { continue }
            if byte == UInt8(ascii: "=") && index >= bytes.count - 2 { continue }
            return false
        }
        return true
    }
}
