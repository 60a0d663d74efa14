extension HTTPHeaders {
    /// The `name=value` pairs of every `Cookie` field, in order (RFC 6265 §4.2.1: pairs split
    /// by `;`, spaces and tabs around them set aside, values as sent). A pair without `=` is
    /// left out.
    ///
    /// The field is split by Unicode scalar (`headerParts(separatedBy:)`), not by `Character`:
    /// a `;` or `=` followed by a combining mark makes one `Character` with it, and a split by
    /// `Character` would not see the separator a client meant.
    public var cookiePairs: [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        for field in fields where field.name.equalsIgnoringASCIICase("Cookie") {
            for pair in field.value[...].headerParts(separatedBy: ";") {
                guard let (name, value) = pair.splitOnce(at: "=") else { continue }
                pairs.append((String(name.trimmingASCIISpaces()), String(value.trimmingASCIISpaces())))
            }
        }
        return pairs
    }

    /// The value of the first cookie named `name` (RFC 6265 §5.4: the first of a repeated
    /// name), compared exactly.
    public func cookie(named name: String) -> String? {
        cookiePairs.first { $0.name == name }?.value
    }
}
