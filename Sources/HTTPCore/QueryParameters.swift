/// Parsing of `application/x-www-form-urlencoded` text: URL queries and form bodies.
package enum QueryParameters {
    /// The name/value pairs of a raw query, in order, percent-decoded with `+` as space.
    ///
    /// A pair without `=` gets an empty value; a pair whose escapes are malformed is kept raw.
    /// The text is split on its bytes (`&` and `=` are ASCII), and a part with no `%` or `+`
    /// is taken as it is, so the common query costs one pass and no decoding.
    @inlinable
    package static func parse<S: StringProtocol>(_ query: S) -> [(name: String, value: String)] {
        let text = Substring(query)
        let inPlace = text.utf8.withContiguousStorageIfAvailable { parse(bytes: $0) }
        return inPlace ?? Array(text.utf8).withUnsafeBufferPointer { parse(bytes: $0) }
    }

    /// `parse` over the query's bytes, by offset: no index of the string is made or aligned.
    @usableFromInline
    static func parse(bytes: UnsafeBufferPointer<UInt8>) -> [(name: String, value: String)] {
        var result: [(name: String, value: String)] = []
        var start = 0
        while start < bytes.count {
            var end = start
            var equals: Int?
            while end < bytes.count && bytes[end] != UInt8(ascii: "&") {
                if equals == nil && bytes[end] == UInt8(ascii: "=") { equals = end }
                end += 1
            }
            if start < end {
                if let equals {
                    result.append((decoded(bytes, start..<equals), decoded(bytes, equals + 1..<end)))
                } else {
                    result.append((decoded(bytes, start..<end), ""))
                }
            }
            start = end + 1
        }
        return result
    }

    /// A part percent-decoded with `+` as space; kept raw when its escapes are malformed.
    private static func decoded(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        let part = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        guard bytes[range].contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return part
        }
        return part.removingPercentEncoding(plusAsSpace: true) ?? part
    }
}
