extension HTTPHeaders {
    /// The `name=value` pairs of every `Cookie` field, in order (RFC 6265 §4.2.1: pairs split
    /// by `;`, spaces and tabs around them set aside, values as sent). A pair without `=` is
    /// left out.
    ///
    /// The field is split on its bytes, by Unicode scalar and not by `Character`: a `;` or `=`
    /// followed by a combining mark makes one `Character` with it, and a split by `Character`
    /// would not see the separator a client meant.
    public var cookiePairs: [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        for field in fields where field.name.equalsIgnoringASCIICase("Cookie") {
            for pair in field.value.utf8.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: true) {
                guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { continue }
                let name = Self.trimmed(pair[pair.startIndex..<equals])
                let value = Self.trimmed(pair[pair.index(after: equals)...])
                pairs.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
            }
        }
        return pairs
    }

    /// The value of the first cookie named `name` (RFC 6265 §5.4: the first of a repeated
    /// name), compared exactly.
    public func cookie(named name: String) -> String? {
        cookiePairs.first { $0.name == name }?.value
    }

    private static func trimmed(_ bytes: Substring.UTF8View.SubSequence) -> Substring.UTF8View.SubSequence {
        var bytes = bytes
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
        return bytes
    }
}
