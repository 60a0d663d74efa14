/// Edit distance between short texts, for ranking near misses.
enum StringDistance {
    /// The Levenshtein distance divided by the longer length: 0 for equal texts, 1 for
    /// nothing in common. Texts are cut to 256 characters to bound the work.
    static func normalized(_ lhs: String, _ rhs: String) -> Double {
        let a = Array(lhs.utf8.prefix(256))
        let b = Array(rhs.utf8.prefix(256))
        let longest = max(a.count, b.count)
        guard longest > 0 else { return 0 }
        if a.isEmpty || b.isEmpty { return 1 }
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
        return Double(previous[b.count]) / Double(longest)
    }
}
