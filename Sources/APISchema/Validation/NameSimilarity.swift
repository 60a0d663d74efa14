import HTTPCore

/// How alike two property names are, from 0 to 1, ignoring case, `_` and `-`
/// (`vetId` and `vet_id` score 1).
package enum NameSimilarity {
    package static func score(_ lhs: String, _ rhs: String) -> Double {
        let left = normalize(lhs)
        let right = normalize(rhs)
        let longest = max(left.utf8.count, right.utf8.count)
        guard longest > 0 else { return 1 }
        return 1 - Double(StringDistance.levenshtein(left, right)) / Double(longest)
    }

    private static func normalize(_ name: String) -> String {
        name.lowercased().filter { $0 != "_" && $0 != "-" }
    }
}
