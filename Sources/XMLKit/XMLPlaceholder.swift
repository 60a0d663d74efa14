import LinearRegex

/// An XMLUnit placeholder in an expected text or attribute value, such as
/// `${xmlunit.ignore}`, `${xmlunit.isNumber}` or `${xmlunit.matchesRegex(^\d+$)}`.
enum XMLPlaceholder: Sendable {
    /// Any value, and no value at all.
    case ignore
    /// A decimal number (sign, digits, fraction, exponent).
    case isNumber
    /// The value, trimmed, matches the regular expression (trimmed too) as a whole (Java
    /// syntax), as XMLUnit's handler has it.
    case matchesRegex(LinearTimeRegex)

    /// Whether the actual value satisfies the placeholder.
    func accepts(_ value: String) -> Bool {
        switch self {
        case .ignore: true
        case .isNumber: Self.isNumber(value.trimmingCharacters(in: { $0.isWhitespace }))
        case .matchesRegex(let regex): regex.wholeMatches(value.trimmingCharacters(in: { $0.isWhitespace }))
        }
    }

    private static func isNumber(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let isDigit = { (byte: UInt8) in byte >= 48 && byte <= 57 }
        let whole = bytes.prefix(while: isDigit)
        bytes = bytes.dropFirst(whole.count)
        var fraction = 0
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            fraction = bytes.prefix(while: isDigit).count
            bytes = bytes.dropFirst(fraction)
        }
        guard whole.count + fraction > 0 else { return false }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                bytes = bytes.dropFirst()
            }
            let exponent = bytes.prefix(while: isDigit).count
            guard exponent > 0 else { return false }
            bytes = bytes.dropFirst(exponent)
        }
        return bytes.isEmpty
    }
}

/// The delimiters of placeholders, as regular expressions (XMLUnit's defaults: `\$\{` and `\}`).
package struct XMLPlaceholderDelimiters: Sendable, Hashable {
    /// The opening delimiter's regular expression.
    package var opening: String
    /// The closing delimiter's regular expression.
    package var closing: String

    /// Creates delimiters; nil gives XMLUnit's default for that side.
    package init(opening: String? = nil, closing: String? = nil) {
        self.opening = opening ?? #"\$\{"#
        self.closing = closing ?? #"\}"#
    }
}

/// Finds placeholders in expected values: the whole value (spaces around allowed) is
/// `OPEN xmlunit.NAME CLOSE` or `OPEN xmlunit.NAME(ARGUMENT) CLOSE`.
struct XMLPlaceholderReader: Sendable {
    let opening: LinearTimeRegex
    let closing: LinearTimeRegex

    init(_ delimiters: XMLPlaceholderDelimiters) throws(XMLPatternError) {
        do {
            opening = try LinearTimeRegex(delimiters.opening)
        } catch {
            throw XMLPatternError(field: "placeholderOpeningDelimiterRegex", message: "\(error.reason)")
        }
        do {
            closing = try LinearTimeRegex(delimiters.closing)
        } catch {
            throw XMLPatternError(field: "placeholderClosingDelimiterRegex", message: "\(error.reason)")
        }
    }

    /// The placeholder the value is, nil when it is a plain value.
    func placeholder(in value: String) throws(XMLPatternError) -> XMLPlaceholder? {
        // Placeholders are short; a long text is a plain value (and is not scanned).
        guard value.utf8.count <= 4096, let marker = value.firstRange(of: "xmlunit.") else { return nil }
        let head = value[..<marker.lowerBound].trimmingCharacters(in: { $0.isWhitespace })
        guard opening.wholeMatches(head) else { return nil }
        let rest = value[marker.upperBound...]
        let name = String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        let afterName = rest.dropFirst(name.count)
        var argument: String?
        if afterName.first == "(" {
            // The argument runs to the last ')' after which only the closing delimiter follows.
            let inside = afterName.dropFirst()
            var end = inside.endIndex
            var found = false
            while let close = inside[..<end].lastIndex(of: ")") {
                let tail = inside[inside.index(after: close)...].trimmingCharacters(in: { $0.isWhitespace })
                if closing.wholeMatches(tail) {
                    argument = String(inside[..<close])
                    found = true
                    break
                }
                end = close
            }
            guard found else { return nil }
        } else {
            guard closing.wholeMatches(afterName.trimmingCharacters(in: { $0.isWhitespace })) else { return nil }
        }
        switch (name, argument) {
        case ("ignore", nil): return .ignore
        case ("isNumber", nil): return .isNumber
        case ("matchesRegex", let pattern?):
            do {
                return .matchesRegex(try LinearTimeRegex(pattern.trimmingCharacters(in: { $0.isWhitespace })))
            } catch {
                throw XMLPatternError(field: "equalToXml", message: "placeholder '\(value)': \(error.reason)")
            }
        default:
            throw XMLPatternError(
                field: "equalToXml",
                message: "placeholder '\(value)' is not one petmock supports (xmlunit.ignore, xmlunit.isNumber, "
                    + "xmlunit.matchesRegex(REGEX))")
        }
    }
}

/// An expected document or option that cannot be used: which field, and why.
package struct XMLPatternError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The matcher field at fault (`equalToXml`, `placeholderOpeningDelimiterRegex`...).
    package let field: String
    /// What is wrong.
    package let message: String

    /// Creates an error.
    package init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    package var description: String { message }
}
