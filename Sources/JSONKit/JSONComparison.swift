import LinearRegex

/// Compares an expected JSON value with an actual one the way WireMock's `equalToJson` does:
/// object key order never matters, numbers compare by value (`1.0` equals `1`), and options
/// relax array order and extra elements.
///
/// ```swift
/// let comparison = JSONComparison(ignoreArrayOrder: true, ignoreExtraElements: true)
/// comparison.matches(expected: ["a": 1], actual: ["a": 1, "b": 2])        // true
/// comparison.difference(expected: ["a": [1, 2]], actual: ["a": [1]])?.description
/// // "$.a: expected an array of 2 elements, found 1"
/// ```
package struct JSONComparison: Sendable, Hashable {
    /// Arrays match when they hold the same elements in any order.
    package var ignoreArrayOrder: Bool
    /// The actual value may have object members and trailing array elements the expected one
    /// lacks (with ``ignoreArrayOrder``, array elements anywhere).
    package var ignoreExtraElements: Bool
    /// Expected strings `${json-unit.ignore}`, `${json-unit.any-string}`,
    /// `${json-unit.any-number}`, `${json-unit.any-boolean}` and `${json-unit.regex}PATTERN` match
    /// by kind or pattern instead of by value.
    package var placeholders: Bool

    /// Creates a comparison; all options off gives exact structural equality.
    package init(ignoreArrayOrder: Bool = false, ignoreExtraElements: Bool = false, placeholders: Bool = false) {
        self.ignoreArrayOrder = ignoreArrayOrder
        self.ignoreExtraElements = ignoreExtraElements
        self.placeholders = placeholders
    }

    /// Whether `actual` matches `expected`.
    package func matches(expected: JSONValue, actual: JSONValue) -> Bool {
        difference(expected: expected, actual: actual) == nil
    }

    /// The first place where `actual` does not match `expected`, or nil when it matches.
    package func difference(expected: JSONValue, actual: JSONValue) -> JSONDifference? {
        var path: [JSONPath.Component] = []
        return difference(expected, actual, &path)
    }

    private func difference(
        _ expected: JSONValue, _ actual: JSONValue, _ path: inout [JSONPath.Component]
    ) -> JSONDifference? {
        if placeholders, case .string(let text) = expected, let result = placeholder(text, actual) {
            return result ? nil : mismatch(path, "a value matching '\(text)'", actual)
        }
        switch (expected, actual) {
        case (.object(let expectedObject), .object(let actualObject)):
            return objectDifference(expectedObject, actualObject, &path)
        case (.array(let expectedElements), .array(let actualElements)):
            return arrayDifference(expectedElements, actualElements, &path)
        default:
            if JSONComparison.scalarsEqual(expected, actual) { return nil }
            return mismatch(path, JSONComparison.excerpt(expected), actual)
        }
    }

    private func objectDifference(
        _ expected: JSONObject, _ actual: JSONObject, _ path: inout [JSONPath.Component]
    ) -> JSONDifference? {
        for member in expected.members {
            path.append(.key(member.key))
            defer { path.removeLast() }
            guard let value = actual[member.key] else {
                if placeholders, member.value == .string("${json-unit.ignore}") { continue }
                return JSONDifference(
                    path: JSONPath(components: path), expected: JSONComparison.excerpt(member.value),
                    actual: "no member '\(member.key)'")
            }
            if let found = difference(member.value, value, &path) { return found }
        }
        if !ignoreExtraElements {
            for member in actual.members where !expected.contains(key: member.key) {
                return JSONDifference(
                    path: JSONPath(components: path + [.key(member.key)]), expected: "no member '\(member.key)'",
                    actual: JSONComparison.excerpt(member.value))
            }
        }
        return nil
    }

    private func arrayDifference(
        _ expected: [JSONValue], _ actual: [JSONValue], _ path: inout [JSONPath.Component]
    ) -> JSONDifference? {
        let countMismatch = ignoreExtraElements ? actual.count < expected.count : actual.count != expected.count
        if countMismatch {
            return JSONDifference(
                path: JSONPath(components: path), expected: "an array of \(expected.count) elements",
                actual: "\(actual.count)")
        }
        if !ignoreArrayOrder {
            for (position, element) in expected.enumerated() {
                path.append(.index(position))
                defer { path.removeLast() }
                if let found = difference(element, actual[position], &path) { return found }
            }
            return nil
        }
        var used = [Bool](repeating: false, count: actual.count)
        for (position, element) in expected.enumerated() {
            var scratch = path
            let match = actual.indices.first { !used[$0] && difference(element, actual[$0], &scratch) == nil }
            guard let match else {
                return JSONDifference(
                    path: JSONPath(components: path + [.index(position)]), expected: JSONComparison.excerpt(element),
                    actual: "no matching element in any order")
            }
            used[match] = true
        }
        return nil
    }

    /// Whether a placeholder matches, or nil when `text` is not a placeholder.
    private func placeholder(_ text: String, _ actual: JSONValue) -> Bool? {
        guard text.hasPrefix("${json-unit.") else { return nil }
        switch text {
        case "${json-unit.ignore}": return true
        case "${json-unit.any-string}": return actual.stringValue != nil
        case "${json-unit.any-number}": return actual.doubleValue != nil
        case "${json-unit.any-boolean}": return actual.boolValue != nil
        default:
            let prefix = "${json-unit.regex}"
            guard text.hasPrefix(prefix) else { return nil }
            // Linear-time matching: the pattern is a stub author's, the text a client's.
            guard let string = actual.stringValue,
                let regex = try? LinearTimeRegex(String(text.dropFirst(prefix.count)))
            else {
                return false
            }
            return regex.wholeMatches(string)
        }
    }

    private func mismatch(_ path: [JSONPath.Component], _ expected: String, _ actual: JSONValue) -> JSONDifference {
        JSONDifference(path: JSONPath(components: path), expected: expected, actual: JSONComparison.excerpt(actual))
    }

    /// Equality of non-container values, numbers by exact decimal value.
    static func scalarsEqual(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.int, .number), (.number, .int), (.number, .number):
            return JSONComparison.decimalText(lhs) == JSONComparison.decimalText(rhs)
        default: return false
        }
    }

    /// A canonical form of a number's exact value: sign, significant digits, exponent.
    static func decimalText(_ value: JSONValue) -> String? {
        let text: String
        switch value {
        case .int(let number): text = String(number)
        case .number(let number): text = number.text
        default: return nil
        }
        var negative = false
        var digits: [UInt8] = []
        var exponent = 0
        var pointSeen = false
        var exponentText = ""
        var inExponent = false
        for byte in text.utf8 {
            if inExponent {
                exponentText.append(Character(Unicode.Scalar(byte)))
                continue
            }
            switch byte {
            case UInt8(ascii: "-"): negative = true
            case UInt8(ascii: "."): pointSeen = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"): inExponent = true
            default:
                digits.append(byte)
                if pointSeen { exponent -= 1 }
            }
        }
        exponent += Int(exponentText) ?? 0
        while let first = digits.first, first == UInt8(ascii: "0") { digits.removeFirst() }
        if digits.isEmpty { return "0" }
        while let last = digits.last, last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent += 1
        }
        return (negative ? "-" : "") + String(decoding: digits, as: UTF8.self) + "e\(exponent)"
    }

    /// A short rendering of a value for messages: at most 60 characters of its compact JSON.
    package static func excerpt(_ value: JSONValue, limit: Int = 60) -> String {
        let text = value.serialized()
        return text.count <= limit ? text : String(text.prefix(limit - 3)) + "..."
    }
}

/// Where two JSON values differ and how.
package struct JSONDifference: Sendable, Hashable, CustomStringConvertible {
    /// The place in the actual value.
    package let path: JSONPath
    /// What was expected there.
    package let expected: String
    /// What was found.
    package let actual: String

    /// Creates a difference.
    package init(path: JSONPath, expected: String, actual: String) {
        self.path = path
        self.expected = expected
        self.actual = actual
    }

    package var description: String {
        "\(path): expected \(expected), found \(actual)"
    }
}

extension JSONValue {
    /// Whether two values are the same JSON regardless of key order and number spelling
    /// (`1.0` equals `1`); arrays keep their order.
    public func isEquivalent(to other: JSONValue) -> Bool {
        JSONComparison().matches(expected: self, actual: other)
    }
}
