/// A JSON value that keeps what JSON says apart: integers from other numbers, `null` from a
/// missing key, and an object's key order and duplicate keys.
///
/// `==` is exact: the same kinds, the same members in the same order, numbers with the same
/// text. Use ``isEquivalent(to:options:)`` for the looser comparison WireMock's `equalToJson`
/// makes.
///
/// ```swift
/// let value = try JSONValue(parsing: #"[{"firstName": "Rex", "vetId": 1}]"#)
/// value[0]?["vetId"]?.intValue            // 1
/// value.serialized(.pretty)               // two-space indented text
/// ```
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without fraction or exponent that fits in 64 bits.
    case int(Int64)
    /// Any other number (with a fraction or exponent, or an integer too large for 64 bits),
    /// kept as written so it round-trips (`2.0` stays `2.0`).
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, its members in source order with duplicate keys kept.
    case object(JSONObject)

    /// The kind of the value, as JSON Schema names it.
    public var kind: JSONKind {
        switch self {
        case .null: .null
        case .bool: .boolean
        case .int: .integer
        case .number(let number): number.isIntegral ? .integer : .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    /// Whether the value is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The Boolean, or nil for any other kind.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The integer, or nil when the value is not an integer that fits in 64 bits.
    public var intValue: Int64? {
        if case .int(let value) = self { return value }
        return nil
    }

    /// The number as a `Double` (integers included), or nil when the value is not a number.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .number(let number): number.doubleValue
        default: nil
        }
    }

    /// The string, or nil for any other kind.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The elements, or nil when the value is not an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The object, or nil when the value is not an object.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The member's value for `key` (the last one when the key is repeated), or nil when this
    /// is not an object or has no such key.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The element at `index`, or nil when this is not an array or the index is out of range.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
        return nil
    }

    /// The value at a path, or nil when any step is missing.
    public subscript(path: JSONPath) -> JSONValue? {
        path.evaluate(on: self).first
    }
}

/// The kinds of JSON value, spelled as JSON Schema's `type` keyword spells them.
public enum JSONKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `null`.
    case null
    /// `true` or `false`.
    case boolean
    /// A number with no fractional part written as an integer.
    case integer
    /// Any number.
    case number
    /// A string.
    case string
    /// An array.
    case array
    /// An object.
    case object

    public var description: String { rawValue }
}
