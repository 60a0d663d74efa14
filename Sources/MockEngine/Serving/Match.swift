/// The second serving stage: the stub that answers the request under what select chose. A
/// function of the event: its matchable request, its snapshot and the scenarios' states.
enum MatchStage {
    /// The stub for the request: with a status asked for, the best stub of any variant that
    /// answers with it; else the named variant's stubs first, then the base. A HEAD no stub
    /// names is matched as a GET (RFC 9110 §9.3.2; the server drops the body).
    @inline(__always) static func match(_ event: ServeEvent) -> CompiledStub? {
        let index = event.snapshot.index
        if let status = event.selection.status {
            return index.match(event.matchable, status: status, scenarios: event.scenarios)
        }
        var named: String?
        if case .named(let name)? = event.selection.variant { named = name }
        return index.match(event.matchable, variant: named, scenarios: event.scenarios)
            ?? event.matchable.headAsGet.flatMap { index.match($0, variant: named, scenarios: event.scenarios) }
    }

    /// The refusal of a request that asks for a status no stub matching it answers with,
    /// naming the statuses there are.
    static func noStub(answering status: Int, _ event: ServeEvent) -> StubDecision {
        let available = event.snapshot.index.statuses(for: event.matchable, scenarios: event.scenarios)
        let message =
            "No stub for \(event.request.method) \(event.matchable.target) answers with status \(status)"
            + (available.isEmpty
                ? "; no stub matches this request at all"
                : "; statuses available: " + available.map(String.init).joined(separator: ", "))
        return .refuse(RequestProblem(.unansweredStatus, requested: "code=\(status)", message: message))
    }
}
