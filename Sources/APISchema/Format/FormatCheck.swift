/// The one set of string `format` checks, for contract validation and `matchesJsonSchema`
/// alike; a format not in ``formats`` always passes.
package enum FormatCheck {
    /// The formats checked.
    package static let formats: Set<String> = [
        "date-time", "date", "time", "uri", "uuid", "byte", "email", "ipv4", "ipv6", "hostname",
    ]

    /// Whether the text is a valid value of the format (true for a format not checked).
    package static func matches(_ text: String, format: String) -> Bool {
        switch format {
        case "date-time": isDateTime(Array(text.utf8))
        case "date": isDate(Array(text.utf8), from: 0) && text.utf8.count == 10
        case "uri": isURI(text)
        case "uuid": isUUID(Array(text.utf8))
        case "byte": isBase64(Array(text.utf8))
        case "time": isTime(Array(text.utf8), from: 0)
        case "email": isEmail(text)
        case "ipv4": isIPv4(Substring(text))
        case "ipv6": isIPv6(text)
        case "hostname": isHostname(Substring(text))
        default: true
        }
    }

    /// RFC 3339 `full-time`: `12:30:00Z`, `12:30:00.5+02:00`.
    private static func isTime(_ bytes: [UInt8], from start: Int) -> Bool {
        guard bytes.count >= start + 9, digits(bytes, start..<start + 2), bytes[start + 2] == UInt8(ascii: ":"),
            digits(bytes, start + 3..<start + 5), bytes[start + 5] == UInt8(ascii: ":"),
            digits(bytes, start + 6..<start + 8)
        else { return false }
        let hour = Int(bytes[start] - 0x30) * 10 + Int(bytes[start + 1] - 0x30)
        let minute = Int(bytes[start + 3] - 0x30) * 10 + Int(bytes[start + 4] - 0x30)
        let second = Int(bytes[start + 6] - 0x30) * 10 + Int(bytes[start + 7] - 0x30)
        guard hour < 24, minute < 60, second <= 60 else { return false }
        var index = start + 8
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let digitsStart = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            if index == digitsStart { return false }
        }
        guard index < bytes.count else { return false }
        if bytes[index] | 0x20 == UInt8(ascii: "z") { return index + 1 == bytes.count }
        guard bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") else { return false }
        return index + 6 == bytes.count && digits(bytes, index + 1..<index + 3) && bytes[index + 3] == UInt8(ascii: ":")
            && digits(bytes, index + 4..<index + 6)
    }

    /// `local@domain`: a dot-atom local part (or a quoted one) and a hostname or an address
    /// literal; no white space.
    private static func isEmail(_ text: String) -> Bool {
        guard let at = text.lastIndex(of: "@") else { return false }
        let local = text[..<at]
        let domain = text[text.index(after: at)...]
        guard !local.isEmpty, local.utf8.count <= 64 else { return false }
        if local.hasPrefix("\""), local.hasSuffix("\""), local.count >= 2 {
            guard !local.contains(where: { $0.isWhitespace && $0 != " " }) else { return false }
        } else {
            let atext = "!#$%&'*+-/=?^_`{|}~"
            let valid = local.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { atom in
                !atom.isEmpty && atom.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || atext.contains($0) }
            }
            guard valid else { return false }
        }
        if domain.hasPrefix("["), domain.hasSuffix("]") {
            let literal = domain.dropFirst().dropLast()
            if literal.lowercased().hasPrefix("ipv6:") { return isIPv6(String(literal.dropFirst(5))) }
            return isIPv4(literal)
        }
        return domain.contains(".") && isHostname(domain)
    }

    /// Dotted decimal: four numbers 0-255 without leading zeros.
    private static func isIPv4(_ text: Substring) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        return parts.allSatisfy { part in
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isNumber }),
                let number = Int(part), number <= 255
            else { return false }
            return part == "0" || !part.hasPrefix("0")
        }
    }

    /// RFC 4291 text form: eight groups of up to four hex digits, one `::` for a run of zero
    /// groups, an IPv4 tail allowed; no zone.
    private static func isIPv6(_ text: String) -> Bool {
        guard text.count <= 45, text.contains(":") else { return false }
        var body = Substring(text)
        var groupsFromTail = 0
        if let lastColon = body.lastIndex(of: ":"), body[body.index(after: lastColon)...].contains(".") {
            guard isIPv4(body[body.index(after: lastColon)...]) else { return false }
            body = body[...lastColon]
            if !body.hasSuffix("::") { body = body.dropLast() }
            groupsFromTail = 2
        }
        var halves = [String(body)]
        if let gap = body.firstRange(of: "::") {
            halves = [String(body[..<gap.lowerBound]), String(body[gap.upperBound...])]
            guard !halves[1].contains("::") else { return false }
        }
        func groups(_ part: String) -> Int? {
            if part.isEmpty { return 0 }
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for piece in pieces {
                guard (1...4).contains(piece.count), piece.allSatisfy({ $0.isHexDigit && $0.isASCII }) else {
                    return nil
                }
            }
            return pieces.count
        }
        guard let first = groups(halves[0]) else { return false }
        if halves.count == 2 {
            guard let second = groups(halves[1]) else { return false }
            return first + second + groupsFromTail <= 7
        }
        return first + groupsFromTail == 8
    }

    /// RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens, each 1-63
    /// long, 253 at most in all (a trailing dot allowed).
    private static func isHostname(_ text: Substring) -> Bool {
        var name = text
        if name.hasSuffix(".") { name = name.dropLast() }
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            guard (1...63).contains(label.utf8.count), label.first != "-", label.last != "-" else { return false }
            return label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }

    private static func digits(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
        range.upperBound <= bytes.count && bytes[range].allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// RFC 3339 `full-date`: `2024-05-01`, a month of 1-12 and a day that month has.
    private static func isDate(_ bytes: [UInt8], from start: Int) -> Bool {
        guard
            digits(bytes, start..<start + 4) && start + 10 <= bytes.count && bytes[start + 4] == UInt8(ascii: "-")
                && digits(bytes, start + 5..<start + 7) && bytes[start + 7] == UInt8(ascii: "-")
                && digits(bytes, start + 8..<start + 10)
        else { return false }
        let year = number(bytes, start..<start + 4)
        let month = number(bytes, start + 5..<start + 7)
        let day = number(bytes, start + 8..<start + 10)
        guard (1...12).contains(month), day >= 1 else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return day <= days
    }

    private static func number(_ bytes: [UInt8], _ range: Range<Int>) -> Int {
        bytes[range].reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// RFC 3339 `date-time`: `2024-05-01T12:30:00Z`, fractional seconds and offsets allowed.
    private static func isDateTime(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 20 && isDate(bytes, from: 0) && bytes[10] | 0x20 == UInt8(ascii: "t") && isTime(bytes, from: 11)
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
