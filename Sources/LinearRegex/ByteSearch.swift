#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A substring search over UTF-8 bytes in time linear in the text (Knuth–Morris–Pratt, with
/// `memchr` to skip ahead to the first byte): the needle's table is built once, at load.
/// Over valid UTF-8 a byte match is a match of the same characters, as Java's
/// `String.contains` compares them (no Unicode normalisation).
package struct ByteSearch: Sendable {
    /// The bytes searched for.
    package let needle: [UInt8]
    /// For each prefix length, the length of its longest proper prefix that is also a suffix.
    private let fallback: [Int]

    /// Prepares a search for these bytes.
    package init(_ needle: [UInt8]) {
        self.needle = needle
        var fallback = [Int](repeating: 0, count: needle.count + 1)
        var length = 0
        for index in needle.indices.dropFirst() {
            while length > 0 && needle[index] != needle[length] { length = fallback[length] }
            if needle[index] == needle[length] { length += 1 }
            fallback[index + 1] = length
        }
        self.fallback = fallback
    }

    /// Prepares a search for the UTF-8 of this text.
    package init(_ needle: String) {
        self.init(Array(needle.utf8))
    }

    /// Whether the needle occurs in the text (an empty needle always does).
    package func occurs<Bytes: Collection<UInt8>>(in text: Bytes) -> Bool {
        if needle.isEmpty { return true }
        if let found = text.withContiguousStorageIfAvailable({ occurs(in: $0) }) { return found }
        return occurs(in: Array(text))
    }

    private func occurs(in text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = text.baseAddress, text.count >= needle.count else { return false }
        let first = Int32(needle[0])
        var index = 0
        var matched = 0
        while index < text.count {
            if matched == 0 {
                guard let found = memchr(base + index, first, text.count - index) else { return false }
                index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            }
            let byte = text[index]
            while matched > 0 && byte != needle[matched] { matched = fallback[matched] }
            if byte == needle[matched] { matched += 1 }
            if matched == needle.count { return true }
            index += 1
        }
        return false
    }
}
