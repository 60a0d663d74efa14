/// A 64-bit summary of a set of field names (query parameters, or headers by lowercased name),
/// one bit a name, for rejecting a stub without reading it: a stub whose required names are
/// not all among a request's cannot match it. Two names may share a bit, which only makes the
/// test let through a stub the full check then rejects; it never rejects one that matches.
struct FieldNameMask: Hashable, Sendable {
    private(set) var bits: UInt64 = 0

    /// Adds a name; `ignoringCase` folds ASCII letters first (header names).
    mutating func insert(_ name: some StringProtocol, ignoringCase: Bool) {
        // FNV-1a over the UTF-8 bytes, then one of 64 bits; a native string's bytes are read
        // in place (iterating its UTF-8 view costs several times more per byte).
        let hash =
            name.utf8.withContiguousStorageIfAvailable { Self.hash($0, ignoringCase: ignoringCase) }
            ?? Array(name.utf8).withUnsafeBufferPointer { Self.hash($0, ignoringCase: ignoringCase) }
        bits |= 1 << (hash % 64)
    }

    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>, ignoringCase: Bool) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            let folded = ignoringCase && byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            hash = (hash ^ UInt64(folded)) &* 0x100_0000_01b3
        }
        return hash
    }

    /// Whether every name of `required` may be in this set.
    func mayContain(_ required: FieldNameMask) -> Bool {
        required.bits & ~bits == 0
    }
}
