/// Picks the media type a request's `Accept` prefers among those a response offers
/// (RFC 9110 §12.5.1: media ranges by `q`, more specific ranges first among equals).
package enum ContentNegotiation {
    /// The index of the offered media type to answer with: the first offered when there is no
    /// `Accept`, nil when it accepts none of them.
    package static func choose(_ offered: [String], accept: String?) -> Int? {
        guard let accept, !accept.trimmingASCIISpaces().isEmpty else { return offered.isEmpty ? nil : 0 }
        // Members and parameters are found scalar by scalar: a combining mark after `,` or `;`
        // must not hide it.
        let members = accept[...].headerParts(separatedBy: ",", quoting: true)
        let ranges = members.enumerated().compactMap { index, part -> (Substring, Double, Int)? in
            let pieces = part.headerParts(separatedBy: ";", quoting: true)
            let range = pieces[0].trimmingASCIISpaces()
            guard !range.isEmpty else { return nil }
            var quality = 1.0
            for parameter in pieces.dropFirst() {
                if let (name, value) = parameter.splitOnce(at: "="),
                    name.trimmingASCIISpaces().equalsIgnoringASCIICase("q")
                {
                    quality = Double(value.trimmingASCIISpaces()) ?? 0
                }
            }
            return (range, quality, index)
        }
        let ordered = ranges.filter { $0.1 > 0 }.sorted { lhs, rhs in
            if lhs.1 != rhs.1 { return lhs.1 > rhs.1 }
            if specificity(lhs.0) != specificity(rhs.0) { return specificity(lhs.0) > specificity(rhs.0) }
            return lhs.2 < rhs.2
        }
        for (range, _, _) in ordered {
            if let index = offered.firstIndex(where: { matches(range, $0) }) { return index }
        }
        return nil
    }

    private static func specificity(_ range: Substring) -> Int {
        if range == "*/*" { return 0 }
        return range.hasSuffix("/*") ? 1 : 2
    }

    private static func matches(_ range: Substring, _ offered: String) -> Bool {
        let type = offered.mediaTypeEssence
        let range = range.lowercased()
        if range == "*/*" { return true }
        if range.hasSuffix("/*") { return type.hasPrefix(range.dropLast()) }
        return type == range
    }
}
