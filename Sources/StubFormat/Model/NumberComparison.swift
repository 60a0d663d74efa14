/// WireMock's number matchers (`equalToNumber`, `greaterThanNumber`, `greaterThanEqualNumber`,
/// `lessThanNumber`, `lessThanEqualNumber`): the request's value, read as a decimal number,
/// compared with the stub's.
public enum NumberComparison: String, Sendable, Hashable, CaseIterable {
    case equalToNumber, greaterThanNumber, greaterThanEqualNumber, lessThanNumber, lessThanEqualNumber

    /// Whether `actual` stands in this relation to `expected`.
    public func holds(_ actual: Double, _ expected: Double) -> Bool {
        switch self {
        case .equalToNumber: actual == expected
        case .greaterThanNumber: actual > expected
        case .greaterThanEqualNumber: actual >= expected
        case .lessThanNumber: actual < expected
        case .lessThanEqualNumber: actual <= expected
        }
    }

    /// The relation as a symbol, for messages.
    public var symbol: String {
        switch self {
        case .equalToNumber: "=="
        case .greaterThanNumber: ">"
        case .greaterThanEqualNumber: ">="
        case .lessThanNumber: "<"
        case .lessThanEqualNumber: "<="
        }
    }

    /// Whether `value` is a whole number a 64-bit integer holds exactly (written without a point).
    public static func isWhole(_ value: Double) -> Bool {
        value.rounded() == value && abs(value) < 9e15
    }

    /// `value` as a stub author writes it: `5`, `2.5`.
    public static func text(_ value: Double) -> String {
        isWhole(value) ? String(Int64(value)) : value.description
    }

    /// `text` as a decimal number: an optional sign, digits with an optional point, an
    /// optional exponent, with spaces and tabs around it ignored (`0001.50` is 1.5). Anything
    /// else (words such as `NaN` or `Infinity`, hexadecimal, an empty text, digits beyond 64)
    /// is no number, so no number matcher holds for it.
    public static func number(in text: Substring) -> Double? {
        var bytes = text.utf8[...]
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
        guard !bytes.isEmpty, bytes.count <= 64 else { return nil }
        var index = bytes.startIndex
        func digits() -> Int {
            var count = 0
            while index < bytes.endIndex, (0x30...0x39).contains(bytes[index]) {
                count += 1
                bytes.formIndex(after: &index)
            }
            return count
        }
        if bytes[index] == 0x2B || bytes[index] == 0x2D { bytes.formIndex(after: &index) }
        var mantissa = digits()
        if index < bytes.endIndex, bytes[index] == 0x2E {
            bytes.formIndex(after: &index)
            mantissa += digits()
        }
        guard mantissa > 0 else { return nil }
        if index < bytes.endIndex, bytes[index] == 0x65 || bytes[index] == 0x45 {
            bytes.formIndex(after: &index)
            if index < bytes.endIndex, bytes[index] == 0x2B || bytes[index] == 0x2D { bytes.formIndex(after: &index) }
            guard digits() > 0 else { return nil }
        }
        guard index == bytes.endIndex else { return nil }
        return Double(String(decoding: bytes, as: UTF8.self))
    }
}
