/// Parsing of `application/x-www-form-urlencoded` text: URL queries and form bodies.
public enum QueryParameters {
    /// The name/value pairs of a raw query, in order, percent-decoded with `+` as space.
    ///
    /// A pair without `=` gets an empty value; a pair whose escapes are malformed is kept raw.
    /// The text is split on its bytes (`&` and `=` are ASCII), and a part with no `%` or `+`
    /// is taken as it is, so the common query costs one pass and no decoding.
    public static func parse<S: StringProtocol>(_ query: S) -> [(name: String, value: String)] {
        let text = Substring(query)
        let bytes = text.utf8
        var result: [(name: String, value: String)] = []
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.endIndex
            if start < end {
                if let equals = bytes[start..<end].firstIndex(of: UInt8(ascii: "=")) {
                    result.append((decoded(text[start..<equals]), decoded(text[bytes.index(after: equals)..<end])))
                } else {
                    result.append((decoded(text[start..<end]), ""))
                }
            }
            start = end == bytes.endIndex ? end : bytes.index(after: end)
        }
        return result
    }

    /// A part percent-decoded with `+` as space; kept raw when its escapes are malformed.
    private static func decoded(_ part: Substring) -> String {
        guard part.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return String(part)
        }
        return part.removingPercentEncoding(plusAsSpace: true) ?? String(part)
    }
}
