/// An ordered list of HTTP header fields with case-insensitive lookup (RFC 9110 §5.1).
///
/// Order and the spelling of names are kept exactly as added, so a header block can be
/// written back as it came; lookups ignore ASCII case.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One header field.
    public struct Field: Sendable, Hashable {
        /// The field name as spelled by its sender.
        public var name: String
        /// The field value, without surrounding white space.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in the order they were added.
    public private(set) var fields: [Field]

    /// Creates an empty header list, or one holding the given fields in order.
    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    /// Creates a header list from name/value pairs in order.
    public init(_ pairs: [(String, String)]) {
        self.fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// The value of the first field with this name, ignoring case.
    public subscript(name: String) -> String? {
        first(name: name)
    }

    /// The value of the first field with this name, ignoring case.
    public func first(name: String) -> String? {
        for field in fields where field.name.equalsIgnoringASCIICase(name) {
            return field.value
        }
        return nil
    }

    /// Every value of the fields with this name, in order, ignoring case.
    public func values(name: String) -> [String] {
        fields.filter { $0.name.equalsIgnoringASCIICase(name) }.map(\.value)
    }

    /// Whether a field with this name is present, ignoring case.
    public func contains(name: String) -> Bool {
        fields.contains { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// Appends a field, keeping any others of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field of this name with one field, or appends it when absent.
    public mutating func replaceOrAdd(name: String, value: String) {
        if let index = fields.firstIndex(where: { $0.name.equalsIgnoringASCIICase(name) }) {
            fields[index].value = value
            var next = index + 1
            while next < fields.count {
                if fields[next].name.equalsIgnoringASCIICase(name) {
                    fields.remove(at: next)
                } else {
                    next += 1
                }
            }
        } else {
            add(name: name, value: value)
        }
    }

    /// Removes every field with this name, ignoring case.
    public mutating func remove(name: String) {
        fields.removeAll { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// Whether a comma-separated header (such as `Connection`) lists the token, ignoring case.
    public func containsToken(_ token: String, inHeader name: String) -> Bool {
        // The fields read in place: no list of the values is made (a server asks per answer).
        for field in fields where field.name.equalsIgnoringASCIICase(name) {
            if Self.listElements(of: field.value, contain: { $0.equalsIgnoringASCIICase(token) }) { return true }
        }
        return false
    }

    /// Whether an element of a comma-separated field value (spaces around it dropped, empty
    /// ones skipped) satisfies `test`; the value is read in place, with no list made.
    public static func listElements(of value: String, contain test: (Substring) -> Bool) -> Bool {
        var rest = Substring(value)
        while !rest.isEmpty {
            let comma = rest.utf8.firstIndex(of: UInt8(ascii: ",")) ?? rest.endIndex
            let element = rest[..<comma].trimmingASCIISpaces()
            if !element.isEmpty, test(element) { return true }
            rest = comma == rest.endIndex ? rest[comma...] : rest[rest.index(after: comma)...]
        }
        return false
    }
}

extension StringProtocol {
    /// Compares two strings byte by byte, folding ASCII letters to lower case.
    // Inlinable so callers in other modules get a specialised copy, not a generic call.
    @inlinable
    public func equalsIgnoringASCIICase<Other: StringProtocol>(_ other: Other) -> Bool {
        let lhs = self.utf8
        let rhs = other.utf8
        guard lhs.count == rhs.count else { return false }
        // Native strings lend their bytes: compared in place, with no iterators.
        let fast = lhs.withContiguousStorageIfAvailable { left in
            rhs.withContiguousStorageIfAvailable { right in
                for index in 0..<left.count where left[index] != right[index] {
                    if !Self.sameLetter(left[index], right[index]) { return false }
                }
                return true
            }
        }
        if let fast, let result = fast { return result }
        for (a, b) in zip(lhs, rhs) where a != b {
            if !Self.sameLetter(a, b) { return false }
        }
        return true
    }

    /// Whether two different bytes are the same ASCII letter in two cases.
    @inlinable
    static func sameLetter(_ a: UInt8, _ b: UInt8) -> Bool {
        let la = (a >= 65 && a <= 90) ? a | 0x20 : a
        let lb = (b >= 65 && b <= 90) ? b | 0x20 : b
        return la == lb
    }

    /// The string without leading and trailing spaces and horizontal tabs.
    @inlinable
    public func trimmingASCIISpaces() -> Substring {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return slice
    }
}
