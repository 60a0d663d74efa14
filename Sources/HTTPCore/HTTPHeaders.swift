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
        // By index: the fields are read in place, not copied out one by one (a copy retains
        // both strings).
        for index in fields.indices where fields[index].name.equalsIgnoringASCIICase(name) {
            return fields[index].value
        }
        return nil
    }

    /// Every value of the fields with this name, in order, ignoring case.
    public func values(name: String) -> [String] {
        fields.filter { $0.name.equalsIgnoringASCIICase(name) }.map(\.value)
    }

    /// Whether a field with this name is present, ignoring case.
    public func contains(name: String) -> Bool {
        fields.indices.contains { fields[$0].name.equalsIgnoringASCIICase(name) }
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
        for index in fields.indices where fields[index].name.equalsIgnoringASCIICase(name) {
            if Self.listElements(of: fields[index].value, contain: { $0.equalsIgnoringASCIICase(token) }) {
                return true
            }
        }
        return false
    }

    /// Whether an element of a comma-separated field value (spaces around it dropped, empty
    /// ones skipped) satisfies `test`; the value is read in place, with no list made.
    public static func listElements(of value: String, contain test: (Substring) -> Bool) -> Bool {
        // A native string's bytes are scanned in place (an element's bounds are ASCII bytes,
        // so they are valid string indices); a bridged one goes through the view below.
        let utf8 = value.utf8
        let scanned = utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != UInt8(ascii: ",") { end += 1 }
                var first = start
                var last = end
                while first < last && (bytes[first] == 0x20 || bytes[first] == 0x09) { first += 1 }
                while last > first && (bytes[last - 1] == 0x20 || bytes[last - 1] == 0x09) { last -= 1 }
                if first < last {
                    let lower = utf8.index(utf8.startIndex, offsetBy: first)
                    let upper = utf8.index(lower, offsetBy: last - first)
                    if test(value[lower..<upper]) { return true }
                }
                start = end + 1
            }
            return false
        }
        if let scanned { return scanned }
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

extension HTTPHeaders {
    /// Hop-by-hop fields: they describe one connection, not the message (RFC 9110 §7.6.1), so
    /// a proxy never forwards them and a stub never replays them.
    public static let hopByHopFieldNames = [
        "Connection", "Keep-Alive", "Proxy-Connection", "Transfer-Encoding", "TE", "Trailer", "Upgrade",
        "Proxy-Authenticate",
    ]
}

extension StringProtocol {
    /// Compares two strings byte by byte, folding ASCII letters to lower case.
    // Inlinable so callers in other modules get a specialised copy, not a generic call; the
    // lengths are compared in the caller (most names asked about differ in length), the bytes
    // in a call.
    @inlinable @inline(__always)
    package func equalsIgnoringASCIICase<Other: StringProtocol>(_ other: Other) -> Bool {
        utf8.count == other.utf8.count && sameBytesIgnoringASCIICase(other)
    }

    /// `equalsIgnoringASCIICase` for two strings of the same UTF-8 length.
    @inlinable
    func sameBytesIgnoringASCIICase<Other: StringProtocol>(_ other: Other) -> Bool {
        let lhs = self.utf8
        let rhs = other.utf8
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
    package func trimmingASCIISpaces() -> Substring {
        // Byte by byte: spaces and tabs are single bytes, and reading Characters would find
        // grapheme boundaries for every one.
        let slice = Substring(self)
        let bytes = slice.utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start = bytes.index(after: start) }
        while start < end {
            let before = bytes.index(before: end)
            guard bytes[before] == 0x20 || bytes[before] == 0x09 else { break }
            end = before
        }
        return slice[start..<end]
    }
}

// Inlinable, as the request path of other modules calls them: a package function is not offered
// to other modules for specialising (as a public one is, by cross-module optimisation) unless
// it says so.
extension StringProtocol {
    /// Whether `needle`'s UTF-8 bytes occur in this string's (see ``rangeOfUTF8(_:)``).
    @inlinable
    package func containsUTF8(_ needle: some StringProtocol) -> Bool {
        rangeOfUTF8(needle) != nil
    }

    /// Where `needle`'s UTF-8 bytes first occur in this string's, compared byte for byte:
    /// header values and request targets are bytes, so there is no Unicode folding and no
    /// Foundation search (which converts to UTF-16 first). An empty needle is found at the
    /// start.
    @inlinable
    package func rangeOfUTF8(_ needle: some StringProtocol) -> Range<String.Index>? {
        let slice = Substring(self)
        let bytes = slice.utf8
        let inPlace = bytes.withContiguousStorageIfAvailable { haystack in
            needle.utf8.withContiguousStorageIfAvailable { pin in Self.offset(of: pin, in: haystack) }
        }
        let found: Int?
        if let inPlace, let result = inPlace {
            found = result
        } else {
            found = Array(bytes).withUnsafeBufferPointer { haystack in
                Array(needle.utf8).withUnsafeBufferPointer { Self.offset(of: $0, in: haystack) }
            }
        }
        guard let offset = found else { return nil }
        let lower = bytes.index(bytes.startIndex, offsetBy: offset)
        return lower..<bytes.index(lower, offsetBy: needle.utf8.count)
    }

    /// The media type of a `Content-Type` value without its parameters, trimmed and with ASCII
    /// letters lower-cased (`application/json` for `Application/JSON; charset=utf-8`); empty
    /// when there is none. Media types are ASCII and compared without case (RFC 9110 §8.3.1).
    @inlinable
    package var mediaTypeEssence: String {
        let inPlace = Substring(self).utf8.withContiguousStorageIfAvailable { Self.mediaTypeEssence(of: $0) }
        return inPlace ?? Array(utf8).withUnsafeBufferPointer { Self.mediaTypeEssence(of: $0) }
    }

    @usableFromInline
    static func mediaTypeEssence(of bytes: UnsafeBufferPointer<UInt8>) -> String {
        var end = 0
        while end < bytes.count && bytes[end] != UInt8(ascii: ";") { end += 1 }
        var start = 0
        while start < end && (bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t")) { start += 1 }
        while end > start && (bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t")) { end -= 1 }
        let type = UnsafeBufferPointer(rebasing: bytes[start..<end])
        guard type.contains(where: { $0 >= 65 && $0 <= 90 }) else { return String(decoding: type, as: UTF8.self) }
        return String(decoding: type.map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// Where `byte` first occurs in this string's UTF-8 bytes: an ASCII delimiter (`?`, `&`)
    /// found by a byte scan in place, not by `Collection.firstIndex` over the UTF-8 view.
    @inlinable
    package func firstIndexOfUTF8(_ byte: UInt8) -> String.Index? {
        let slice = Substring(self)
        let bytes = slice.utf8
        let inPlace = bytes.withContiguousStorageIfAvailable { haystack in haystack.firstIndex(of: byte) }
        guard let found = inPlace else { return bytes.firstIndex(of: byte) }
        return found.map { bytes.index(bytes.startIndex, offsetBy: $0) }
    }

    @usableFromInline
    static func offset(
        of needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>
    ) -> Int? {
        guard let first = needle.first else { return 0 }
        guard needle.count <= haystack.count else { return nil }
        var start = 0
        let last = haystack.count - needle.count
        while start <= last {
            if haystack[start] == first {
                var index = 1
                while index < needle.count && haystack[start + index] == needle[index] { index += 1 }
                if index == needle.count { return start }
            }
            start += 1
        }
        return nil
    }
}
