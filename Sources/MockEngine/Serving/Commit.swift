import HTTPHandlerKit
import Platform

/// The serving stage that makes a request's answer count: its scenario's move and its one
/// journal entry, then the listeners. Every path through the stages ends here, once: a
/// canned answer when it is decided, a forwarded one when the upstream's answer is known (on
/// the thread that got it). A scenario moves when its stub is chosen, before a proxy stub's
/// transfer, as in WireMock.
struct CommitStage: Sendable {
    let journal: RequestJournal
    let scenarios: ScenarioStore
    /// Where the journal's dates come from.
    let clock: TimeSource
    /// Tells the server's subscribers of unmatched requests passed on upstream.
    let announcer: ProxiedRequestAnnouncer
    /// Keeps the problems of the requests petmock refused.
    let problems: RequestProblemLog
    /// Told of each committed answer, in order, after the engine's own two above.
    let listeners: [any ServeListener]

    /// Moves the stub's scenario to its next state, if it names one.
    func moveScenario(of stub: CompiledStub) {
        if let name = stub.scenarioName, let next = stub.mapping.newScenarioState {
            scenarios.transition(name, from: stub.requiredScenarioState, to: next)
        }
    }

    /// Journals the request with its outcome and tells the listeners.
    @inline(__always) func commit(_ request: HTTPServerRequest, _ outcome: ServeOutcome) {
        if journal.capacity > 0 { journal.append(entry(request, outcome)) }
        announcer.served(request, outcome)
        problems.served(request, outcome)
        for listener in listeners { listener.served(request, outcome) }
    }

    /// The journal's entry for a request and its outcome (the URL as sent, in origin form).
    func entry(_ request: HTTPServerRequest, _ outcome: ServeOutcome) -> LoggedRequest {
        let target = request.head.target
        let url = target.utf8.first == UInt8(ascii: "/") ? target : String(request.head.originForm)
        let date = clock.wallMilliseconds
        guard outcome.hasDetails else {
            // Most answers: no upstream result, document part or problem to read or pass.
            return LoggedRequest(
                sequence: 0, idPrefix: journal.idPrefix, method: request.method, url: url, headers: request.headers,
                body: request.body, clientAddress: request.remoteAddress, loggedDate: date,
                variant: outcome.variant, responseStatus: outcome.status, stub: outcome.stub, isSecure: request.isSecure
            )
        }
        return LoggedRequest(
            sequence: 0, idPrefix: journal.idPrefix, method: request.method, url: url, headers: request.headers,
            body: request.body, clientAddress: request.remoteAddress, loggedDate: date,
            variant: outcome.variant, responseStatus: outcome.status, stub: outcome.stub, upstream: outcome.upstream,
            documentOperation: outcome.documentOperation, violations: outcome.document?.violations ?? [],
            responseViolations: outcome.responseViolations, problem: outcome.problem, preflight: outcome.isPreflight,
            isSecure: request.isSecure)
    }
}

/// What runs after a request's answer is committed: the last serving stage, where behaviours
/// that react to served requests go. Called on the thread that committed (an event loop, or
/// libcurl's I/O thread), so a listener only hands the event on: it never blocks or writes
/// files there.
protocol ServeListener: Sendable {
    func served(_ request: HTTPServerRequest, _ outcome: ServeOutcome)
}

/// Tells the server's event subscribers of each unmatched request passed on to the live API
/// (`--proxy-unmatched`): what was asked, where it went and what came back.
struct ProxiedRequestAnnouncer: ServeListener {
    let publish: @Sendable (StubServerEvent) -> Void

    func served(_ request: HTTPServerRequest, _ outcome: ServeOutcome) {
        guard outcome.forwarded == .unmatched, let upstream = outcome.upstream else { return }
        publish(
            .proxied(
                request: "\(request.method) \(request.head.originForm)", upstream: upstream.url,
                result: ForwardStage.describe(upstream)))
    }
}
