/// What the one evaluation of a request pattern reports each criterion to, as it checks it.
///
/// Serving and explaining run the same code (``CompiledRequestPattern/evaluate(_:urlKnown:into:)``):
/// every criterion's verdict is worked out once, by that code, and handed to the recorder with a
/// way to explain it. ``FirstFailure`` stops at the first criterion that fails and never asks
/// for an explanation (the hot path); ``AllCriteria`` goes on and keeps each explanation (the
/// near-miss report). So "matches" is, by construction, "every criterion of the report matched".
protocol MatchRecorder {
    /// Records one criterion's verdict; `explain` describes it (what was expected, what came,
    /// how far). Returns whether the evaluation goes on.
    mutating func record(_ matched: Bool, _ explain: () -> MatchCriterion) -> Bool
}

/// Stops at the first failing criterion and explains nothing: the recorder serving uses.
struct FirstFailure: MatchRecorder {
    @inline(__always)
    mutating func record(_ matched: Bool, _ explain: () -> MatchCriterion) -> Bool { matched }
}

/// Keeps every criterion with its explanation; the verdict is the one the evaluation gave,
/// and a distance agrees with it (0 when matched, at least 0.1 when not).
struct AllCriteria: MatchRecorder {
    private(set) var criteria: [MatchCriterion] = []

    mutating func record(_ matched: Bool, _ explain: () -> MatchCriterion) -> Bool {
        var criterion = explain()
        criterion.matched = matched
        criterion.distance = matched ? 0 : max(0.1, min(1, criterion.distance))
        criteria.append(criterion)
        return true
    }

    /// Whether every criterion recorded matched.
    var allMatched: Bool { criteria.allSatisfy(\.matched) }
}
