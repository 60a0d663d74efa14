import APISchema

/// A `Decoder` that builds a placeholder instance of a type: empty strings, zeros, `false`,
/// empty arrays, absent optionals, the first case of a `CaseIterable` enum.
///
/// The ``RecordingDecoder`` must hand its caller a value for every non-optional property;
/// this is where it comes from.
struct PlaceholderDecoder: Decoder {
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// A placeholder of the type, or a thrown `DecodingError` when it cannot be made.
    static func make<T: Decodable>(_ type: T.Type, depth: Int = 0) throws -> T {
        if let known = KnownTypes.placeholder(type) { return known }
        guard depth < 32 else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: [], debugDescription: "placeholder nested too deeply"))
        }
        do {
            return try T(from: PlaceholderDecoder(depth: depth + 1))
        } catch {
            if let zeroed = zeroedRawValueEnum(type) { return zeroed }
            throw ContractError.cannotReflect(
                type: SwiftTypeName.of(type), path: "",
                reason: "no placeholder value can be made for it (\(error)); make it CaseIterable or optional")
        }
    }

    /// A value of a `RawRepresentable` type that is not `CaseIterable` (an enum whose raw values
    /// the decoder cannot know): all-zero bits, which for a trivial type (no references) are a
    /// valid value: the first case of an enum without payloads, zeros for a plain struct.
    private static func zeroedRawValueEnum<T>(_ type: T.Type) -> T? {
        guard type is any RawRepresentable.Type, _isPOD(type) else { return nil }
        let size = max(1, MemoryLayout<T>.size)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<T>.alignment)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        return memory.load(as: T.self)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(PlaceholderKeyedContainer<Key>(depth: depth))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        PlaceholderUnkeyedContainer(depth: depth)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        PlaceholderSingleValueContainer(depth: depth)
    }
}

struct PlaceholderKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { false }
    func decodeNil(forKey key: Key) throws -> Bool { true }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try PlaceholderDecoder.make(type, depth: depth)
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { nil }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try PlaceholderDecoder.make(type) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { nil }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try PlaceholderDecoder.make(type) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { nil }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try PlaceholderDecoder.make(type) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { nil }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try PlaceholderDecoder.make(type) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { nil }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try PlaceholderDecoder.make(type) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { nil }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try PlaceholderDecoder.make(type) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { nil }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try PlaceholderDecoder.make(type) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { nil }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try PlaceholderDecoder.make(type) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { nil }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try PlaceholderDecoder.make(type) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { nil }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try PlaceholderDecoder.make(type) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { nil }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try PlaceholderDecoder.make(type) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { nil }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try PlaceholderDecoder.make(type) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { nil }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try PlaceholderDecoder.make(type) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { nil }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try PlaceholderDecoder.make(type) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { nil }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(PlaceholderKeyedContainer<NestedKey>(depth: depth))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        PlaceholderUnkeyedContainer(depth: depth)
    }

    func superDecoder() throws -> any Decoder { PlaceholderDecoder(depth: depth) }
    func superDecoder(forKey key: Key) throws -> any Decoder { PlaceholderDecoder(depth: depth) }
}

struct PlaceholderUnkeyedContainer: UnkeyedDecodingContainer {
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    var count: Int? { 0 }
    var isAtEnd: Bool { true }
    var currentIndex: Int { 0 }

    mutating func decodeNil() throws -> Bool { true }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try PlaceholderDecoder.make(type, depth: depth) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(PlaceholderKeyedContainer<NestedKey>(depth: depth))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        PlaceholderUnkeyedContainer(depth: depth)
    }

    mutating func superDecoder() throws -> any Decoder { PlaceholderDecoder(depth: depth) }
}

struct PlaceholderSingleValueContainer: SingleValueDecodingContainer {
    let depth: Int
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { true }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try PlaceholderDecoder.make(type, depth: depth) }
    func decode(_ type: Bool.Type) throws -> Bool { try PlaceholderDecoder.make(type) }
    func decode(_ type: String.Type) throws -> String { try PlaceholderDecoder.make(type) }
    func decode(_ type: Double.Type) throws -> Double { try PlaceholderDecoder.make(type) }
    func decode(_ type: Float.Type) throws -> Float { try PlaceholderDecoder.make(type) }
    func decode(_ type: Int.Type) throws -> Int { try PlaceholderDecoder.make(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try PlaceholderDecoder.make(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try PlaceholderDecoder.make(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try PlaceholderDecoder.make(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try PlaceholderDecoder.make(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try PlaceholderDecoder.make(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try PlaceholderDecoder.make(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try PlaceholderDecoder.make(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try PlaceholderDecoder.make(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try PlaceholderDecoder.make(type) }
}
