/// A JSON number kept as its source text: a number with a fraction or exponent, or an integer
/// too large for `Int64`.
///
/// Keeping the text means `2.0`, `1234567890.12` and `12345678901234567890123` serialise back
/// exactly as they came; ``doubleValue`` gives the nearest `Double` when arithmetic is needed.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number as written in JSON.
    public let text: String

    /// Creates a number from JSON number text, or nil when `text` is not a JSON number.
    public init?(text: String) {
        guard JSONNumber.isValidJSONNumber(Array(text.utf8)) else { return nil }
        self.text = text
    }

    /// Creates a number from a finite `Double`, or nil for NaN and infinities (JSON has none).
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        // Swift prints the shortest text that reads back as the same Double, always valid JSON
        // for finite values (`2.0`, `1e-05`, `1e+20`).
        self.text = value.description
    }

    init(validatedText: String) {
        self.text = validatedText
    }

    /// The nearest `Double` (infinite when the text is out of `Double`'s range).
    public var doubleValue: Double {
        Double(text) ?? .nan
    }

    /// Whether the text has neither fraction nor exponent (a big integer).
    public var isIntegral: Bool {
        !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }

    /// Whether the value is a whole number however it is written (`2`, `2.0`, `1e3`, `250e-2`
    /// is not): JSON Schema's `integer` type counts these.
    public var isWholeNumber: Bool {
        if isIntegral { return true }
        let parts = text.lowercased().split(separator: "e", maxSplits: 1)
        guard let mantissa = parts.first else { return false }
        // An exponent beyond any digit count we could have is read as "very large or small".
        let exponent = parts.count > 1 ? Int(parts[1].prefix(9)) ?? 0 : 0
        let halves = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = halves[0].drop { $0 == "-" }
        var fraction = halves.count > 1 ? Substring(halves[1]) : ""
        while fraction.hasSuffix("0") { fraction.removeLast() }
        if exponent >= 0 { return fraction.count <= exponent }
        // A negative exponent moves digits of the whole part behind the point: they must be zeros.
        guard fraction.isEmpty else { return false }
        let zeros = whole.reversed().prefix { $0 == "0" }.count
        return whole.allSatisfy { $0 == "0" } || zeros >= -exponent
    }

    public var description: String { text }

    /// Whether the bytes are exactly one JSON number (RFC 8259 §6).
    static func isValidJSONNumber(_ bytes: [UInt8]) -> Bool {
        var index = 0
        func digits() -> Int {
            let start = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            return index - start
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { return false }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            return false
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            if digits() == 0 { return false }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            if digits() == 0 { return false }
        }
        return index == bytes.count
    }
}
