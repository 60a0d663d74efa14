/// Edit distance between short texts: how near misses are ranked, and how a mistyped name
/// (an option, a subcommand, a stub field, a variant) finds the one meant.
package enum StringDistance {
    /// The Levenshtein distance of two texts' UTF-8 bytes, each cut to 256 bytes to bound the work.
    package static func levenshtein(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs.utf8.prefix(256))
        let b = Array(rhs.utf8.prefix(256))
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// ``levenshtein(_:_:)`` divided by the longer length: 0 for equal texts, 1 for nothing in
    /// common.
    package static func normalized(_ lhs: String, _ rhs: String) -> Double {
        let longest = max(min(lhs.utf8.count, 256), min(rhs.utf8.count, 256))
        guard longest > 0 else { return 0 }
        return Double(levenshtein(lhs, rhs)) / Double(longest)
    }

    /// The candidate a mistyped word most likely meant ("did you mean"), compared ignoring case:
    /// the nearest, when it is at most a third of the word's length away (one edit at least,
    /// two at most: `fulname` is not taken for `name`); the first of equally near ones. Nil when none is that near, or the word
    /// is one of them.
    package static func nearest(to word: String, among candidates: [String]) -> String? {
        guard !word.isEmpty, !candidates.contains(word) else { return nil }
        let lowered = word.lowercased()
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = levenshtein(lowered, candidate.lowercased())
            if distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        guard let best, best.distance <= max(1, min(2, (word.count + 2) / 3)) else { return nil }
        return best.candidate
    }
}
