/// The `Decoder` behind ``JSONValueDecoder``: one value and its coding path, serving as its own
/// single-value container.
struct JSONValueDecoding: Decoder, SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let options: [CodingUserInfoKey: any Sendable]

    init(value: JSONValue, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: any Sendable]) {
        self.value = value
        self.codingPath = codingPath
        self.options = userInfo
    }

    var userInfo: [CodingUserInfoKey: Any] { options }

    /// A decoder for a value nested under `key`.
    func nested(_ value: JSONValue, at key: any CodingKey) -> JSONValueDecoding {
        JSONValueDecoding(value: value, codingPath: codingPath + [key], userInfo: options)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            throw mismatch([String: Any].self)
        }
        return KeyedDecodingContainer(JSONValueKeyedContainer<Key>(decoder: self, object: object))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw mismatch([Any].self)
        }
        return JSONValueUnkeyedContainer(decoder: self, elements: elements)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { value.isNull }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(type) }
        return bool
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let string) = value else { throw mismatch(type) }
        return string
    }

    func decode(_ type: Double.Type) throws -> Double { try floatingPoint(type) }
    func decode(_ type: Float.Type) throws -> Float { try floatingPoint(type) }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try T(from: self)
    }

    /// The number as `T` when its value is a whole number in `T`'s range. An integer written
    /// as such is read exactly; any other is read as a `Double` first, as Foundation does.
    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let fitted: T?
        switch value {
        case .int(let integer):
            fitted = T(exactly: integer)
        case .number(let number) where number.isIntegral:
            fitted = T(number.text)
        case .number(let number):
            let double = number.doubleValue
            fitted = double.isFinite ? T(exactly: double) : nil
        default:
            throw mismatch(type)
        }
        guard let fitted else { throw numberDoesNotFit(type) }
        return fitted
    }

    /// The number as `T`, rounded to the nearest, when it stays finite.
    private func floatingPoint<T: BinaryFloatingPoint>(_ type: T.Type) throws -> T {
        guard let double = value.doubleValue else { throw mismatch(type) }
        let rounded = T(double)
        guard rounded.isFinite else { throw numberDoesNotFit(type) }
        return rounded
    }

    private func numberDoesNotFit(_ type: Any.Type) -> DecodingError {
        let text: String
        switch value {
        case .int(let integer): text = "\(integer)"
        case .number(let number): text = number.text
        default: text = value.kind.rawValue
        }
        return .typeMismatch(
            type,
            DecodingError.Context(codingPath: codingPath, debugDescription: "number \(text) does not fit in \(type)"))
    }

    /// `valueNotFound` for a null, `typeMismatch` for any other kind.
    func mismatch(_ type: Any.Type) -> DecodingError {
        let expected = JSONValueDecoding.name(of: type)
        if value.isNull {
            return .valueNotFound(
                type,
                DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(expected), found null"))
        }
        let found: String
        switch value.kind {
        case .integer, .number: found = "number"
        default: found = value.kind.rawValue
        }
        return .typeMismatch(
            type,
            DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(expected), found \(found)"))
    }

    private static func name(of type: Any.Type) -> String {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier([String: Any].self): "object"
        case ObjectIdentifier([Any].self): "array"
        default: "\(type)"
        }
    }
}
