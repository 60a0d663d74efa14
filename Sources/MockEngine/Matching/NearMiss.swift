import StubFormat

/// One criterion of a request pattern, checked against a request: for the "Request was not
/// matched" report and the admin API's near misses.
public struct MatchCriterion: Sendable, Hashable {
    /// `method`, `url`, `query 'page'`, `header 'Accept'`, `body` or `scenario`.
    public var name: String
    /// Whether the request satisfied it.
    public var matched: Bool
    /// What the stub asks for.
    public var expected: String
    /// What the request had.
    public var actual: String
    /// From 0 (matched) to 1 (nothing alike).
    public var distance: Double

    /// Creates a criterion result.
    public init(name: String, matched: Bool, expected: String, actual: String, distance: Double) {
        self.name = name
        self.matched = matched
        self.expected = expected
        self.actual = actual
        self.distance = distance
    }
}

/// A stub that almost matched a request: how far it was and, per criterion, what differed.
public struct NearMiss: Sendable, Hashable {
    /// The stub.
    public var mapping: StubMapping
    /// The mapping file it came from; nil for one added through the admin API or given in code.
    public var file: String?
    /// The mean of the criteria's distances, from 0 to 1; smaller is closer.
    public var distance: Double
    /// Every criterion, matched or not.
    public var criteria: [MatchCriterion]

    /// Creates a near miss.
    public init(mapping: StubMapping, file: String? = nil, distance: Double, criteria: [MatchCriterion]) {
        self.mapping = mapping
        self.file = file
        self.distance = distance
        self.criteria = criteria
    }

    /// The stub as a person names it: `'get items' (mappings/items.json)`, its id only when it
    /// has neither name nor file.
    public var label: String { StubLabel.label(mapping, file: file) }

    /// The criteria that did not match.
    public var differences: [MatchCriterion] { criteria.filter { !$0.matched } }
}
