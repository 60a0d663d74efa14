import APISchema

/// A `Decoder` that answers a type's `init(from:)` with placeholder values while recording
/// every key and type asked for.
final class RecordingDecoder: Decoder {
    let session: ReflectionSession
    let path: String
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    private(set) var shape: RecordedShape = .none

    init(session: ReflectionSession, path: String, codingPath: [any CodingKey]) {
        self.session = session
        self.path = path
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let record: ObjectRecord
        if case .keyed(let existing) = shape {
            record = existing
        } else {
            record = ObjectRecord()
            shape = .keyed(record)
        }
        return KeyedDecodingContainer(
            RecordingKeyedContainer<Key>(decoder: self, record: record, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let record = ArrayRecord()
        shape = .unkeyed(record)
        return RecordingUnkeyedContainer(decoder: self, record: record, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        let record = SingleValueRecord()
        shape = .single(record)
        return RecordingSingleValueContainer(decoder: self, record: record, codingPath: codingPath)
    }

    /// Reflects a nested type's schema and makes a placeholder of it for the caller.
    func reflect<T: Decodable>(_ type: T.Type, at key: String) throws -> Schema {
        try session.reflect(type, path: path + "." + key)
    }

    /// A coding key with the JSON key the app's decoder reads it from and the Swift case name;
    /// throws when no JSON key reaches it under the decoder's key strategy.
    func recordedKey<Key: CodingKey>(_ key: Key) throws(ContractError) -> RecordedKey {
        let codingKey = key.stringValue
        guard let jsonKey = session.conventions.jsonKey(for: codingKey) else {
            throw .cannotReflect(
                type: session.currentTypeName ?? path, path: path + "." + codingKey,
                reason: "no JSON key decodes to the coding key '\(codingKey)' under the decoder's "
                    + "\(session.conventions.keyStrategyName), so this property can never be read")
        }
        return RecordedKey(codingKey: codingKey, jsonKey: jsonKey, caseName: CodingKeyName.caseName(of: key))
    }
}

struct RecordingKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: RecordingDecoder
    let record: ObjectRecord
    let codingPath: [any CodingKey]
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool {
        record.checkedKeys.insert(key.stringValue)
        return true
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        record.nullCheckedKeys.insert(key.stringValue)
        return false
    }

    private func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        let recorded = try decoder.recordedKey(key)
        let schema = try decoder.reflect(type, at: recorded.jsonKey)
        record.record(recorded, schema: schema, typeName: SwiftTypeName.of(type), optional: false)
        return try PlaceholderDecoder.make(type)
    }

    private func decodeIfPresent<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        let recorded = try decoder.recordedKey(key)
        let schema = try decoder.reflect(type, at: recorded.jsonKey)
        record.record(recorded, schema: schema, typeName: SwiftTypeName.of(type), optional: true)
        return nil
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decode(type, key) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try decodeIfPresent(type, key) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type, key) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try decodeIfPresent(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try decodeIfPresent(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try decodeIfPresent(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try decodeIfPresent(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try decodeIfPresent(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try decodeIfPresent(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try decodeIfPresent(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try decodeIfPresent(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try decodeIfPresent(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try decodeIfPresent(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try decodeIfPresent(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try decodeIfPresent(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try decodeIfPresent(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try decodeIfPresent(type, key) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let nested = ObjectRecord()
        let recorded = try decoder.recordedKey(key)
        let nestedDecoder = RecordingDecoder(
            session: decoder.session, path: decoder.path + "." + recorded.jsonKey, codingPath: codingPath + [key])
        // The nested container's keys are read after this returns: the record is kept and its
        // schema made when the owner's is.
        record.record(recorded, nested: nested, typeName: "nested")
        return KeyedDecodingContainer(
            RecordingKeyedContainer<NestedKey>(decoder: nestedDecoder, record: nested, codingPath: codingPath + [key]))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let nested = ArrayRecord()
        let recorded = try decoder.recordedKey(key)
        record.record(recorded, schema: Schema(types: [.array]), typeName: "nested", optional: false)
        return RecordingUnkeyedContainer(decoder: decoder, record: nested, codingPath: codingPath + [key]) { schema in
            record.record(recorded, schema: schema, typeName: "nested", optional: false)
        }
    }

    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
}

struct RecordingUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: RecordingDecoder
    let record: ArrayRecord
    let codingPath: [any CodingKey]
    var onChange: ((Schema) -> Void)?
    var count: Int? { nil }
    var currentIndex = 0
    var isAtEnd: Bool { currentIndex > 0 }

    init(
        decoder: RecordingDecoder, record: ArrayRecord, codingPath: [any CodingKey],
        onChange: ((Schema) -> Void)? = nil
    ) {
        self.decoder = decoder
        self.record = record
        self.codingPath = codingPath
        self.onChange = onChange
    }

    mutating func decodeNil() throws -> Bool {
        record.nullable = true
        return false
    }

    private mutating func decodeElement<T: Decodable>(_ type: T.Type) throws -> T {
        record.elements.append(try decoder.reflect(type, at: "[\(currentIndex)]"))
        currentIndex += 1
        onChange?(record.schema())
        return try PlaceholderDecoder.make(type)
    }

    private mutating func decodeElementIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        record.nullable = true
        record.elements.append(try decoder.reflect(type, at: "[\(currentIndex)]"))
        currentIndex += 1
        onChange?(record.schema())
        return nil
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeElement(type) }
    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? { try decodeElementIfPresent(type) }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try decodeElement(type) }
    mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? { try decodeElementIfPresent(type) }
    mutating func decode(_ type: String.Type) throws -> String { try decodeElement(type) }
    mutating func decodeIfPresent(_ type: String.Type) throws -> String? { try decodeElementIfPresent(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try decodeElement(type) }
    mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? { try decodeElementIfPresent(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try decodeElement(type) }
    mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? { try decodeElementIfPresent(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try decodeElement(type) }
    mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? { try decodeElementIfPresent(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decodeElement(type) }
    mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? { try decodeElementIfPresent(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decodeElement(type) }
    mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? { try decodeElementIfPresent(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decodeElement(type) }
    mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? { try decodeElementIfPresent(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decodeElement(type) }
    mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? { try decodeElementIfPresent(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decodeElement(type) }
    mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? { try decodeElementIfPresent(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeElement(type) }
    mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? { try decodeElementIfPresent(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeElement(type) }
    mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? { try decodeElementIfPresent(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeElement(type) }
    mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? { try decodeElementIfPresent(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeElement(type) }
    mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? { try decodeElementIfPresent(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let nested = ObjectRecord()
        currentIndex += 1
        record.elements.append(Schema(types: [.object]))
        return KeyedDecodingContainer(
            RecordingKeyedContainer<NestedKey>(decoder: decoder, record: nested, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        currentIndex += 1
        record.elements.append(Schema(types: [.array]))
        return RecordingUnkeyedContainer(decoder: decoder, record: ArrayRecord(), codingPath: codingPath)
    }

    mutating func superDecoder() throws -> any Decoder { decoder }
}

struct RecordingSingleValueContainer: SingleValueDecodingContainer {
    let decoder: RecordingDecoder
    let record: SingleValueRecord
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool {
        record.nullable = true
        return false
    }

    private func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        record.value = try decoder.reflect(type, at: "")
        return try PlaceholderDecoder.make(type)
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }
    func decode(_ type: Bool.Type) throws -> Bool { try decodeValue(type) }
    func decode(_ type: String.Type) throws -> String { try decodeValue(type) }
    func decode(_ type: Double.Type) throws -> Double { try decodeValue(type) }
    func decode(_ type: Float.Type) throws -> Float { try decodeValue(type) }
    func decode(_ type: Int.Type) throws -> Int { try decodeValue(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decodeValue(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decodeValue(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decodeValue(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decodeValue(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decodeValue(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeValue(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeValue(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeValue(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeValue(type) }
}
