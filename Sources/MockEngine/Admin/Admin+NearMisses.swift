import StubFormat

extension Admin {
    /// The journaled requests closest to a request pattern, closest first (at most `limit`),
    /// with their distance: WireMock's `POST /__admin/near-misses/request-pattern`.
    public func nearMisses(
        forPattern pattern: RequestPattern, limit: Int = 3
    ) throws(AdminError) -> [(request: LoggedRequest, distance: Double)] {
        let compiled = try Self.compile(pattern, clock: store.clock)
        let ranked = engine.journal.entries().map { entry -> (request: LoggedRequest, distance: Double) in
            let criteria = compiled.evaluate(MatchableRequest(entry))
            return (entry, criteria.map(\.distance).reduce(0, +) / Double(max(1, criteria.count)))
        }
        // Stable: equally distant requests keep the journal's order, newest first.
        let newestFirst = ranked.reversed().enumerated()
        return Array(
            newestFirst.sorted { ($0.element.distance, $0.offset) < ($1.element.distance, $1.offset) }.map(\.element)
                .prefix(limit))
    }
}

extension Admin {
    /// Removes the journaled requests that match the pattern and returns them, oldest first
    /// (WireMock's `POST /__admin/requests/remove`).
    public func removeRequests(matching pattern: RequestPattern) throws(AdminError) -> [LoggedRequest] {
        let compiled = try Self.compile(pattern, clock: store.clock)
        return engine.journal.removing { compiled.matches(MatchableRequest($0)) }
    }

    /// Removes the journaled requests answered by a mapping whose metadata the matcher accepts
    /// and returns them (WireMock's `POST /__admin/requests/remove-by-metadata`).
    public func removeRequests(
        forMappingsWithMetadataMatching matcher: StringMatcher
    ) throws(AdminError)
        -> [LoggedRequest]
    {
        let ids = Set(try mappings(withMetadataMatching: matcher).map(\.id))
        let removed = engine.journal.removing { request in
            guard let id = request.matchedMapping?.id else { return false }
            return ids.contains(id)
        }
        return removed.reversed()
    }
}

extension Admin {
    /// Every unmatched request in the journal with its closest stubs, as the 404's text gives
    /// them ("Request was not matched", then per criterion what matched and what differed),
    /// oldest first; empty when every request matched. Requests petmock refused (a variant no
    /// stub has) are not in it: ``requestProblems()`` lists them.
    public func unmatchedReport() -> String {
        let snapshot = store.snapshot()
        return unmatchedRequests().filter { $0.problem == nil }.map { request in
            var variant: String?
            if let name = request.variant, case .named(let named)? = try? Variant(name) { variant = named }
            let matchable = MatchableRequest(request)
            let misses = snapshot.index.nearMisses(for: matchable, variant: variant, scenarios: engine.scenarios)
            return UnmatchedReport(request: matchable, nearMisses: misses, variant: request.variant).text
        }.joined(separator: "\n")
    }
}
