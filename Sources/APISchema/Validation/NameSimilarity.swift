/// How alike two property names are, from 0 to 1, ignoring case, `_` and `-`
/// (`vetId` and `vet_id` score 1).
package enum NameSimilarity {
    package static func score(_ lhs: String, _ rhs: String) -> Double {
        let left = normalize(lhs)
        let right = normalize(rhs)
        let longest = max(left.count, right.count)
        guard longest > 0 else { return 1 }
        return 1 - Double(distance(left, right)) / Double(longest)
    }

    private static func normalize(_ name: String) -> [Character] {
        name.lowercased().filter { $0 != "_" && $0 != "-" }.map { $0 }
    }

    /// Levenshtein distance.
    static func distance(_ lhs: [Character], _ rhs: [Character]) -> Int {
        if lhs.isEmpty { return rhs.count }
        if rhs.isEmpty { return lhs.count }
        var previous = Array(0...rhs.count)
        var current = [Int](repeating: 0, count: rhs.count + 1)
        for (i, left) in lhs.enumerated() {
            current[0] = i + 1
            for (j, right) in rhs.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[rhs.count]
    }
}
