import HTTPCore
import HTTPHandlerKit
import JSONKit
import Platform

/// The stub server's core, with no socket of its own: picks the stub for a request (variants
/// and scenarios considered), journals it, and returns the reply as a value. The HTTP server
/// and the admin API are adapters around it.
package final class StubEngine: Sendable {
    package let store: StubStore
    /// The scenarios' states and the state extension's contexts.
    let scenarios: ScenarioStore
    let journal: RequestJournal
    /// Forwards requests to the live API (recording, unmatched requests).
    let proxy: UpstreamProxy
    /// The admin API's recording.
    let recording = RecordingSession()
    /// Where unmatched requests go instead of a 404, if anywhere.
    let proxyUnmatched: String?
    /// How long a proxied request may take.
    let upstreamTimeout: Duration
    /// What answers requests no stub matches (an OpenAPI document), if anything.
    let fallback: (any FallbackReplySource)?
    /// Whether browsers' cross-origin requests are answered (`--cors`, ``CORSStage``).
    let cors: Bool
    /// Tells the server's event subscribers.
    let publish: @Sendable (StubServerEvent) -> Void
    /// The last stage every answer goes through: journal, scenario moves, listeners.
    let commit: CommitStage
    /// WireMock's global settings (`/__admin/settings`).
    let settings = GlobalSettingsStore()
    /// The problems of the requests petmock refused, bounded (a listener).
    let requestProblems = RequestProblemLog()
    /// The webhook calls' outcomes, bounded.
    let webhookLog = WebhookLog()
    /// Sends the stubs' webhooks once their answers are committed (a listener).
    let webhooks: WebhookDispatcher
    /// Runs the stubs' state listeners (`recordState`, `deleteState`) on their answers.
    let state: StateStage

    package convenience init(
        store: StubStore, journalCapacity: Int, proxyUnmatched: String? = nil, upstreamTimeout: Duration = .seconds(30),
        upstream: UpstreamProxy, fallback: (any FallbackReplySource)? = nil, cors: Bool = false,
        publish: @escaping @Sendable (StubServerEvent) -> Void = { _ in }, stateLimits: StateLimits = .standard
    ) {
        self.init(
            store: store, journalCapacity: journalCapacity, proxyUnmatched: proxyUnmatched,
            upstreamTimeout: upstreamTimeout, upstream: upstream, fallback: fallback, cors: cors, publish: publish,
            listeners: [], stateLimits: stateLimits)
    }

    /// An engine whose answers `listeners` are told of, after the server's own.
    init(
        store: StubStore, journalCapacity: Int, proxyUnmatched: String?, upstreamTimeout: Duration,
        upstream: UpstreamProxy, fallback: (any FallbackReplySource)?, cors: Bool = false,
        publish: @escaping @Sendable (StubServerEvent) -> Void, listeners: [any ServeListener],
        stateLimits: StateLimits = .standard
    ) {
        self.cors = cors
        self.store = store
        scenarios = ScenarioStore(stateLimits: stateLimits, clock: store.clock)
        journal = RequestJournal(capacity: journalCapacity)
        proxy = upstream
        self.proxyUnmatched = proxyUnmatched
        self.upstreamTimeout = upstreamTimeout
        self.fallback = fallback
        self.publish = publish
        webhooks = WebhookDispatcher(proxy: upstream, log: webhookLog, clock: store.clock, publish: publish)
        state = StateStage(store: scenarios.contexts, clock: store.clock, publish: publish)
        commit = CommitStage(
            journal: journal, scenarios: scenarios, clock: store.clock,
            announcer: ProxiedRequestAnnouncer(publish: publish), problems: requestProblems,
            listeners: [webhooks] + listeners)
    }

    /// The reply to one stub request (not an admin one): the serving stages (`Serving/`) in
    /// order. Select, match and answer decide with no effect (``decide(_:)``); then the
    /// decision is answered here or forwarded, and committed. With CORS on, every reply to a
    /// request with `Origin` passes ``CORSStage/expose(_:to:forwarded:)`` here, once.
    package func reply(to request: HTTPServerRequest) -> HTTPReply {
        let event = ServeEvent(request, snapshot: store.snapshot(), scenarios: scenarios)
        let decision = decide(event)
        let reply = carryOut(decision, event)
        guard cors, let origin = request.headers.first(name: "Origin") else { return reply }
        return CORSStage.expose(reply, to: origin, forwarded: decision.isForwarded)
    }

    /// What to do with a request, with no effect: recording, the variant it asks for, the
    /// stub that matches under it, and that stub's answer (or the document's, or why none).
    @inline(__always) func decide(_ event: ServeEvent) -> StubDecision {
        let underway = recording.isActive ? recording.current() : nil
        switch SelectStage.select(
            event.request.headers, query: event.matchable.queryParameters, snapshot: event.snapshot,
            recording: underway)
        {
        case .record(let target, let recorder):
            let head = event.request.head
            if let refusal = recorder.configuration.refusal(
                method: head.method, path: head.path, host: event.request.headers.first(name: "Host"))
            {
                return .refuse(refusal)
            }
            return .record(target: target, recorder: recorder)
        case .refuse(let refusal, let documentMayAnswer):
            // `Prefer: example=NAME` no stub variant has: the document's example of that name.
            guard documentMayAnswer, let answer = documentAnswer(event.request, under: .none) else { return refusal }
            return answer
        case .serve(let selection):
            event.selection = selection
        }
        let stub = MatchStage.match(event)
        // A browser's preflight, unless a stub naming OPTIONS matched it; before the document.
        // The method first: the one test most requests pay when CORS is on.
        if cors, event.matchable.method == .options, let preflight = CORSStage.preflight(event, over: stub) {
            return .preflight(preflight)
        }
        if let stub { return AnswerStage.answer(stub, event) }
        if let answer = documentAnswer(event.request, under: event.selection) { return answer }
        if let status = event.selection.status { return MatchStage.noStub(answering: status, event) }
        if let target = proxyUnmatched { return .passOn(target: target) }
        return .unmatched(
            variant: event.selection.variant, fallback: fallback?.summary(forUnanswered: event.request))
    }

    /// The fallback source's answer to a request no stub matched, nil when there is no
    /// source or it has no answer.
    /// With `--proxy-unmatched`, a request the source routes to the live API is passed on with
    /// the check of its answer.
    private func documentAnswer(_ request: HTTPServerRequest, under selection: RequestedVariant) -> StubDecision? {
        guard let fallback else { return nil }
        guard let target = proxyUnmatched else {
            return fallback.reply(to: request).map { AnswerStage.answer($0, under: selection) }
        }
        switch fallback.route(forwarding: request) {
        case nil: return nil
        case .answer(let answer)?: return AnswerStage.answer(answer, under: selection)
        case .forward(let operation, let check)?:
            return .passOn(target: target, check: DocumentCheck(operation: operation, check: check))
        }
    }

    /// Carries a decision out: forwarded upstream, or answered here; committed either way.
    @inline(__always) func carryOut(_ decision: StubDecision, _ event: ServeEvent) -> HTTPReply {
        switch decision {
        case .record(let target, let recorder):
            let route = ForwardRoute.recording(event.request, to: target, recorder: recorder)
            return ForwardStage.forward(event.request, along: route, through: proxy, commit: commit)
        case .passOn(let target, let check):
            var route = ForwardRoute.unmatched(event.request, to: target, timeout: upstreamTimeout)
            route.check = check
            return ForwardStage.forward(event.request, along: route, through: proxy, commit: commit)
        case .proxy(let stub, let definition):
            commit.moveScenario(of: stub)
            switch ForwardRoute.stub(stub, definition, event, timeout: upstreamTimeout) {
            case .success(let route):
                return ForwardStage.forward(
                    event.request, along: route, through: proxy, commit: commit,
                    state: stub.stateListeners.isEmpty ? nil : state)
            case .failure(let failure):
                commit.commit(event.request, ServeOutcome(status: 500, stub: stub))
                return .response(AnswerStage.stubFailed(stub, failure.message))
            }
        case .answer(let stub, _, _):
            commit.moveScenario(of: stub)
            return answer(decision, event)
        case .refuse, .unmatched, .templateFailed, .document, .preflight:
            return answer(decision, event)
        }
    }

    /// Answers a decision here and commits it.
    private func answer(_ decision: StubDecision, _ event: ServeEvent) -> HTTPReply {
        var (reply, outcome) = AnswerStage.reply(to: decision, event, delaying: settings.delaying)
        if case .answer(let stub, let served, let variant) = decision, !stub.stateListeners.isEmpty,
            let problem = state.record(stub, answered: served, event)
        {
            outcome = ServeOutcome(status: outcome.status, stub: stub, variant: variant, problem: problem)
        }
        commit.commit(event.request, outcome)
        return reply
    }

    /// Resolves a variant for every request (`--variant`, the admin API): as
    /// ``SelectStage/resolve(_:in:)``,
    /// and a JSON drift must apply to at least one base stub's body, else the error lists the
    /// fields the base stubs' JSON bodies have.
    package func resolveServerWide(_ name: String, in index: StubIndex) throws(VariantError) -> Variant {
        let variant = try SelectStage.resolve(name, in: index)
        // The fallback's answers are made per request, so a drift cannot be checked against them here.
        guard let field = variant.field, fallback == nil else { return variant }
        var fields = Set<String>()
        for stub in index.all where stub.mapping.variant == nil {
            guard case .prepared(let prepared, _, _) = stub.served,
                let body = try? JSONValue(parsing: prepared.response.body)
            else { continue }
            if (try? DriftGenerator.drift(body, variant)) != nil { return variant }
            DriftGenerator.collectKeys(body, into: &fields)
        }
        let reason: String
        switch field {
        case .key(let key): reason = "no base stub's JSON body has the field '\(key)'"
        case .path(let path):
            reason = "the JSONPath \(path) selects nothing this drift can change in any base stub's JSON body"
        }
        throw VariantError(name: name, reason: reason, knownFields: fields.sorted())
    }

    /// Whether the client asked for JSON rather than text.
    static func wantsJSON(_ headers: HTTPHeaders) -> Bool {
        headers.fields.contains { field in
            field.name.equalsIgnoringASCIICase("Accept")
                && (field.value.containsUTF8("application/json") || field.value.containsUTF8("+json"))
        }
    }
}
