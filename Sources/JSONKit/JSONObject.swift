/// A JSON object: its members in source order, duplicate keys kept.
///
/// Lookup by key returns the last member with that key, as JavaScript's `JSON.parse` and
/// most decoders do; ``values(forKey:)`` returns every one.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// The members in order.
    public var members: [JSONMember]

    /// Creates an object from members in order.
    public init(_ members: [JSONMember] = []) {
        self.members = members
    }

    /// Creates an object from key/value pairs in order.
    public init(_ pairs: [(String, JSONValue)]) {
        self.members = pairs.map { JSONMember(key: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.members = elements.map { JSONMember(key: $0.0, value: $0.1) }
    }

    /// The number of members, duplicates counted.
    public var count: Int { members.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { members.isEmpty }

    /// The keys in order, duplicates included.
    public var keys: [String] { members.map(\.key) }

    public func makeIterator() -> IndexingIterator<[JSONMember]> { members.makeIterator() }

    /// The value of the last member with this key. Setting replaces the last such member's
    /// value (or appends a member); setting nil removes every member with the key.
    public subscript(key: String) -> JSONValue? {
        get {
            var index = members.count - 1
            while index >= 0 {
                if members[index].key == key { return members[index].value }
                index -= 1
            }
            return nil
        }
        set {
            guard let newValue else {
                members.removeAll { $0.key == key }
                return
            }
            if let index = members.lastIndex(where: { $0.key == key }) {
                members[index].value = newValue
            } else {
                members.append(JSONMember(key: key, value: newValue))
            }
        }
    }

    /// Whether a member has this key.
    public func contains(key: String) -> Bool {
        members.contains { $0.key == key }
    }

    /// Every value given for the key, in order.
    public func values(forKey key: String) -> [JSONValue] {
        members.filter { $0.key == key }.map(\.value)
    }

    /// The keys that occur more than once, each listed once in order of first repeat.
    public var duplicateKeys: [String] {
        var seen = Set<String>()
        var repeated: [String] = []
        for member in members where !seen.insert(member.key).inserted && !repeated.contains(member.key) {
            repeated.append(member.key)
        }
        return repeated
    }

    /// Appends a member, keeping any earlier one with the same key.
    public mutating func append(key: String, value: JSONValue) {
        members.append(JSONMember(key: key, value: value))
    }
}

/// One `"key": value` member of a ``JSONObject``.
public struct JSONMember: Sendable, Hashable {
    /// The key.
    public var key: String
    /// The value.
    public var value: JSONValue

    /// Creates a member.
    public init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }
}
