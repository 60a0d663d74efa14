import StubFormat

/// A mapping that can never answer: another mapping matches every request it matches, in
/// the same variant and scenario state, and goes first by ``StubPrecedence`` (a higher
/// priority, or the same priority and newer), with the same status (else `Prefer: code=NNN`
/// still reaches it; a fault never is). A recording hidden by a hand-written stub for the
/// same request is the usual case.
///
/// The check is conservative: it warns only when it is sure. The other mapping must have
/// the same method (or `ANY`), the same URL criterion (or a `urlPath` equal to the path of
/// this one's `url`, or none at all) and no query, header, path or body criterion this one
/// lacks; equal criteria are compared as written, so two regular expressions that happen to
/// match the same text count as different.
public struct StubShadow: Sendable, Hashable {
    /// Where a mapping is, and where it stands.
    public struct Place: Sendable, Hashable {
        /// The mapping file, as loaded (`Stubs/mappings/pets.json`).
        public var file: String
        /// The mapping's JSONPath in that file (`$`, `$.mappings[2]`).
        public var path: String
        /// Its effective priority.
        public var priority: Int

        /// Creates a place.
        public init(file: String, path: String, priority: Int) {
            self.file = file
            self.path = path
            self.priority = priority
        }
    }

    /// The mapping that never answers.
    public var shadowed: Place
    /// The mapping that answers instead.
    public var winner: Place
    /// Whether the two request patterns are equal (otherwise the winner's is wider).
    public var samePattern: Bool

    /// Creates a shadow.
    public init(shadowed: Place, winner: Place, samePattern: Bool) {
        self.shadowed = shadowed
        self.winner = winner
        self.samePattern = samePattern
    }

    /// The warning, on the shadowed mapping's request:
    /// `Stubs/mappings/get-api-pets.json: warning: $.request: never answers: Stubs/mappings/pets.json ($) has the
    /// same request and takes precedence (priority 5, newer)`.
    public var problem: StubProblem {
        let request = shadowed.path == "$" ? "$.request" : shadowed.path + ".request"
        let what = samePattern ? "has the same request" : "matches every request this one does"
        let why =
            winner.priority == shadowed.priority
            ? "priority \(winner.priority), newer" : "priority \(winner.priority), higher than \(shadowed.priority)"
        return StubProblem(
            .warning, .neverAnswers, file: shadowed.file, path: request,
            detail: "never answers: \(winner.file) (\(winner.path)) \(what) and takes precedence (\(why))")
    }
}

/// Finds the mappings that can never answer (``StubShadow``).
public enum StubShadowing {
    /// A mapping and where it was loaded from.
    public struct Entry: Sendable {
        /// The mapping.
        public var mapping: StubMapping
        /// Its file.
        public var file: String
        /// Its JSONPath in the file.
        public var path: String

        /// Creates an entry.
        public init(_ mapping: StubMapping, file: String, path: String = "$") {
            self.mapping = mapping
            self.file = file
            self.path = path
        }
    }

    /// The shadowed mappings among these, given in load order (a later one is newer), each
    /// with the mapping that answers in its place.
    public static func shadows(among entries: [Entry]) -> [StubShadow] {
        shadows(
            among: entries.enumerated().map { index, entry in
                (entry, StubPrecedence(priority: entry.mapping.effectivePriority, sequence: index))
            })
    }

    /// The shadowed mappings, with each mapping's precedence as the store has it.
    static func shadows(among entries: [(entry: Entry, precedence: StubPrecedence)]) -> [StubShadow] {
        // Only mappings with the same URL key (or none) can cover each other.
        var buckets: [URLKey: [Int]] = [:]
        var wildcards: [Int] = []
        for (index, item) in entries.enumerated() {
            if let key = URLKey(item.entry.mapping.request.url) {
                buckets[key, default: []].append(index)
            } else {
                wildcards.append(index)
            }
        }
        var found: [StubShadow] = []
        for (index, item) in entries.enumerated() {
            let key = URLKey(item.entry.mapping.request.url)
            let candidates = (key.flatMap { buckets[$0] } ?? []) + wildcards
            var winner: Int?
            for other in candidates where other != index {
                let candidate = entries[other]
                guard candidate.precedence < item.precedence,
                    winner.map({ candidate.precedence < entries[$0].precedence }) ?? true,
                    hidesEvenByStatus(candidate.entry.mapping, item.entry.mapping),
                    covers(candidate.entry.mapping, item.entry.mapping)
                else { continue }
                winner = other
            }
            guard let winner else { continue }
            let shadowed = item.entry
            let answering = entries[winner].entry
            found.append(
                StubShadow(
                    shadowed: StubShadow.Place(
                        file: shadowed.file, path: shadowed.path, priority: shadowed.mapping.effectivePriority),
                    winner: StubShadow.Place(
                        file: answering.file, path: answering.path, priority: answering.mapping.effectivePriority),
                    samePattern: answering.mapping.request == shadowed.mapping.request))
        }
        return found
    }

    /// Whether `wider` answers every request `narrower` would answer: the same variant and
    /// scenario condition (or none on `wider`), the same state matcher (or none on `wider`), and
    /// a request pattern that asks no more.
    static func covers(_ wider: StubMapping, _ narrower: StubMapping) -> Bool {
        guard wider.variant == narrower.variant else { return false }
        if let condition = scenarioCondition(wider), condition != scenarioCondition(narrower) { return false }
        let lhs = wider.request
        let rhs = narrower.request
        // The state extension's matcher depends on the state: only the same one covers.
        if let matcher = lhs.stateMatcher, matcher != rhs.stateMatcher { return false }
        if let method = lhs.method, method != rhs.method { return false }
        switch (lhs.methods, rhs.methods) {
        case (nil, _): break
        case (.oneOf(let wider)?, .oneOf(let narrower)?) where narrower.allSatisfy(wider.contains): break
        case (.oneOf(let wider)?, nil) where rhs.method.map(wider.contains) ?? false: break
        case (.noneOf(let wider)?, .noneOf(let narrower)?) where wider.allSatisfy(narrower.contains): break
        default: return false
        }
        let sameURL = lhs.url == rhs.url
        if !sameURL {
            switch (lhs.url, rhs.url) {
            case (nil, _): break
            case (.urlPath(let path)?, .url(let url)?) where URLKey.path(of: url) == path: break
            default: return false
            }
            // Path parameters belong to a template both would have to share.
            guard lhs.pathParameters.isEmpty else { return false }
        }
        return isSubset(lhs.pathParameters, of: rhs.pathParameters)
            && isSubset(lhs.queryParameters, of: rhs.queryParameters) && isSubset(lhs.headers, of: rhs.headers)
            && isSubset(lhs.bodyPatterns, of: rhs.bodyPatterns) && isSubset(lhs.cookies, of: rhs.cookies)
            && isSubset(lhs.formParameters, of: rhs.formParameters)
            && (lhs.basicAuthCredentials == nil || lhs.basicAuthCredentials == rhs.basicAuthCredentials)
            && isSubset(lhs.multipartPatterns, of: rhs.multipartPatterns)
    }

    /// Whether `Prefer: code=NNN` cannot reach the hidden mapping either: that picks the
    /// first matching stub with the status, so a mapping with another status than the one
    /// before it still answers then. A fault has no status and is never picked.
    static func hidesEvenByStatus(_ first: StubMapping, _ hidden: StubMapping) -> Bool {
        guard hidden.response.fault == nil else { return true }
        return first.response.fault == nil && first.response.status == hidden.response.status
    }

    /// The scenario state a mapping needs, or nil when it answers in any.
    private static func scenarioCondition(_ mapping: StubMapping) -> [String]? {
        guard let name = mapping.scenarioName, let state = mapping.requiredScenarioState else { return nil }
        return [name, state]
    }

    private static func isSubset<Element: Equatable>(_ lhs: [Element], of rhs: [Element]) -> Bool {
        lhs.allSatisfy { rhs.contains($0) }
    }

    /// What groups mappings that may cover each other: the path for `url` and `urlPath`, the
    /// criterion itself for the others.
    private struct URLKey: Hashable {
        let field: String
        let value: String

        init?(_ pattern: URLPattern?) {
            switch pattern {
            case nil: return nil
            case .url(let url)?: (field, value) = ("path", Self.path(of: url))
            case .urlPath(let path)?: (field, value) = ("path", path)
            case let other?: (field, value) = (other.fieldName, other.value)
            }
        }

        /// The path of a `url` criterion: what comes before the query.
        static func path(of url: String) -> String {
            String(url.prefix { $0 != "?" })
        }
    }
}
