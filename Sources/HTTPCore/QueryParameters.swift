/// Parsing of `application/x-www-form-urlencoded` query strings (the part after `?`).
public enum QueryParameters {
    /// The name/value pairs of a raw query, in order, percent-decoded with `+` as space.
    ///
    /// A pair without `=` gets an empty value; a pair whose escapes are malformed is kept raw.
    public static func parse<S: StringProtocol>(_ query: S) -> [(name: String, value: String)] {
        var result: [(name: String, value: String)] = []
        for pair in Substring(query).split(separator: "&", omittingEmptySubsequences: true) {
            let name: Substring
            let value: Substring
            if let equals = pair.firstIndex(of: "=") {
                name = pair[..<equals]
                value = pair[pair.index(after: equals)...]
            } else {
                name = pair
                value = ""
            }
            result.append(
                (
                    name.removingPercentEncoding(plusAsSpace: true) ?? String(name),
                    value.removingPercentEncoding(plusAsSpace: true) ?? String(value)
                ))
        }
        return result
    }
}
