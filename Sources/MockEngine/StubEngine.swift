import HTTPCore
import HTTPHandlerKit
import JSONKit
import Platform

/// The stub server's core, with no socket of its own: picks the stub for a request (variants
/// and scenarios considered), journals it, and returns the reply as a value. The HTTP server
/// and the admin API are adapters around it.
package final class StubEngine: Sendable {
    package let store: StubStore
    let scenarios = ScenarioStore()
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
    /// Tells the server's event subscribers.
    let publish: @Sendable (StubServerEvent) -> Void
    /// WireMock's global settings (`/__admin/settings`).
    let settings = GlobalSettingsStore()

    package init(
        store: StubStore, journalCapacity: Int, proxyUnmatched: String? = nil, upstreamTimeout: Duration = .seconds(30),
        upstream: UpstreamProxy, fallback: (any FallbackReplySource)? = nil,
        publish: @escaping @Sendable (StubServerEvent) -> Void = { _ in }
    ) {
        self.store = store
        journal = RequestJournal(capacity: journalCapacity)
        proxy = upstream
        self.proxyUnmatched = proxyUnmatched
        self.upstreamTimeout = upstreamTimeout
        self.fallback = fallback
        self.publish = publish
    }

    /// The reply to one stub request (not an admin one): the decision, then its effects.
    func reply(to request: HTTPServerRequest) -> HTTPReply {
        let snapshot = store.snapshot()
        let matchable = MatchableRequest(request)
        return apply(decide(request, matchable, snapshot: snapshot), to: request, matchable, snapshot: snapshot)
    }

    /// What to do with a request, with no effect: recording, the variant it asks for, the
    /// stub that matches under it, and that stub's answer.
    func decide(
        _ request: HTTPServerRequest, _ matchable: MatchableRequest, snapshot: StubStore.Snapshot
    )
        -> StubDecision
    {
        if recording.isActive, let session = recording.current() {
            return .record(target: session.target, recorder: session.recorder)
        }
        let selection: RequestedVariant
        switch RequestedVariant.select(request.headers, snapshot: snapshot, engine: self) {
        case .success(let selected): selection = selected
        case .failure(let refusal):
            // `Prefer: example=NAME` no stub variant has: the document's example of that name.
            guard request.headers.first(name: "X-Petmock-Variant") == nil,
                let answer = fallbackAnswer(
                    request, selection: RequestedVariant(variant: nil, status: nil, requested: nil))
            else { return refusal.decision }
            return answer
        }
        if let status = selection.status {
            return decide(request, matchable, status: status, snapshot: snapshot)
        }
        var named: String?
        if case .named(let name)? = selection.variant { named = name }
        let stub =
            snapshot.index.match(matchable, variant: named, scenarios: scenarios)
            ?? matchable.headAsGet.flatMap { snapshot.index.match($0, variant: named, scenarios: scenarios) }
        guard let stub else {
            if let answer = fallbackAnswer(request, selection: selection) { return answer }
            if let target = proxyUnmatched { return .passOn(target: target) }
            return .unmatched(variant: selection.variant)
        }
        return answer(of: stub, to: request, matchable, selection: selection)
    }

    /// The decision for a request that asks for a status (`Prefer: code=NNN`).
    private func decide(
        _ request: HTTPServerRequest, _ matchable: MatchableRequest, status: Int, snapshot: StubStore.Snapshot
    ) -> StubDecision {
        let selection = RequestedVariant(variant: snapshot.serverVariant, status: status, requested: nil)
        if let stub = snapshot.index.match(matchable, status: status, scenarios: scenarios) {
            return answer(of: stub, to: request, matchable, selection: selection)
        }
        if let answer = fallbackAnswer(request, selection: selection) { return answer }
        let available = snapshot.index.statuses(for: matchable, scenarios: scenarios)
        let message =
            "No stub for \(request.method) \(matchable.target) answers with status \(status)"
            + (available.isEmpty
                ? "; no stub matches this request at all"
                : "; statuses available: " + available.map(String.init).joined(separator: ", "))
        return .refuse(message: message, variant: "code=\(status)")
    }

    /// What the stub that matched answers: passed on (a proxy stub), rendered (a template),
    /// drifted (a generated variant), or refused (a variant asked for that does not apply).
    private func answer(
        of stub: CompiledStub, to request: HTTPServerRequest, _ matchable: MatchableRequest,
        selection: RequestedVariant
    ) -> StubDecision {
        let variant = selection.variant
        if let proxy = stub.mapping.response.proxy {
            if let requested = selection.requested, let variant, variant.isGenerated {
                return .refuse(
                    message: "Variant '\(requested)' does not apply: the stub that matched passes the request on "
                        + "to \(proxy.baseURL) (proxyBaseUrl), and petmock drifts canned answers only",
                    variant: requested)
            }
            return .proxy(stub, proxy)
        }
        let base: ServedResponse
        if let template = stub.template {
            switch template.render(request, matchable, stub: stub) {
            case .success(let rendered): base = rendered
            case .failure(let failure):
                return .templateFailed(stub, message: failure.message, variant: variant?.description)
            }
        } else {
            base = stub.served
        }
        let label = variant?.description ?? selection.status.map { "code=\($0)" }
        guard let variant, variant.isGenerated else { return .answer(stub, base, variant: label) }
        // Drifts apply to what the templates rendered; only fixed answers are cached.
        let served =
            stub.template == nil
            ? stub.served(under: variant) : DriftGenerator.apply(variant, to: base, stub: stub.mapping)
        // A drift the request asked for by name either applies or is refused, never served as
        // the unchanged body; a server-wide one leaves such responses alone.
        if let requested = selection.requested, DriftGenerator.isUnchanged(served, from: base),
            let refusal = DriftGenerator.refusal(of: variant, named: requested, for: base)
        {
            return .refuse(message: refusal.description, variant: requested, knownFields: refusal.knownFields)
        }
        return .answer(stub, served, variant: label)
    }

    /// The fallback source's answer to a request no stub matched, drifted as a stub's answer
    /// is under a generated variant; nil when there is no source or it has no answer.
    private func fallbackAnswer(_ request: HTTPServerRequest, selection: RequestedVariant) -> StubDecision? {
        guard let fallback, let answer = fallback.reply(to: request) else { return nil }
        let base = ServedResponse.prepared(answer.response, StubDelay(fixedMilliseconds: 0, distribution: nil), nil)
        let label = selection.variant?.description ?? selection.status.map { "code=\($0)" }
        // A refused request's problem document is not the document's answer: no drift applies.
        guard let variant = selection.variant, variant.isGenerated, answer.violations.isEmpty else {
            return .document(base, variant: label, answer: answer)
        }
        let served = DriftGenerator.apply(variant, to: base, stub: nil)
        if let requested = selection.requested, DriftGenerator.isUnchanged(served, from: base),
            let refusal = DriftGenerator.refusal(of: variant, named: requested, for: base)
        {
            return .refuse(message: refusal.description, variant: requested, knownFields: refusal.knownFields)
        }
        return .document(served, variant: label, answer: answer)
    }

    /// Carries a decision out: the journal, the scenario's move, recording and proxying.
    func apply(
        _ decision: StubDecision, to request: HTTPServerRequest, _ matchable: MatchableRequest,
        snapshot: StubStore.Snapshot
    ) -> HTTPReply {
        switch decision {
        case .record(let target, let recorder):
            return forward(request, to: target, recorder: recorder)
        case .refuse(let message, let variant, let knownFields):
            return refuse(request, matchable, message: message, variant: variant, knownFields: knownFields)
        case .unmatched(let variant):
            return unmatched(request, matchable, snapshot: snapshot, variant: variant)
        case .passOn(let target):
            return forward(request, to: target, recorder: nil)
        case .proxy(let stub, let definition):
            moveScenario(of: stub)
            return forward(request, matchable, through: definition, stub: stub)
        case .templateFailed(let stub, let message, let variant):
            record(request, matchable, variant: variant, status: 500, stub: stub)
            return .response(
                HTTPResponse(status: HTTPStatus(code: 500), text: "petmock: stub \(stub.mapping.id): \(message)\n"))
        case .document(let served, let variant, let answer):
            record(request, matchable, variant: variant, status: served.status, stub: nil, document: answer)
            switch served {
            case .prepared(let prepared, let delay, let dribble):
                return HTTPReply.prepared(prepared, dribble: dribble).delayed(by: delay.httpDelay())
            case .fault(let fault, let delay):
                return HTTPReply.fault(fault).delayed(by: delay.httpDelay())
            }
        case .answer(let stub, let served, let variant):
            moveScenario(of: stub)
            record(request, matchable, variant: variant, status: served.status, stub: stub)
            switch served {
            case .prepared(let prepared, let delay, let dribble):
                return HTTPReply.prepared(prepared, dribble: dribble).delayed(by: self.delay(delay, of: stub))
            case .fault(let fault, let delay):
                return HTTPReply.fault(fault).delayed(by: self.delay(delay, of: stub))
            }
        }
    }

    /// Moves the stub's scenario to its next state, if it names one.
    private func moveScenario(of stub: CompiledStub) {
        if let name = stub.scenarioName, let next = stub.mapping.newScenarioState {
            scenarios.transition(name, from: stub.requiredScenarioState, to: next)
        }
    }

    /// A stub answer's delay: the stub's own, with the global settings' where it sets none.
    private func delay(_ own: StubDelay, of stub: CompiledStub) -> HTTPDelay {
        let global = settings.delaying
        guard let global else { return own.httpDelay() }
        return global.delay(own, of: stub.mapping.response).httpDelay()
    }

    /// Resolves a variant name against the stubs: a generated form, or a file variant that
    /// exists.
    func resolve(_ name: String, in index: StubIndex) throws(VariantError) -> Variant {
        let variant: Variant
        do {
            variant = try Variant(name)
        } catch {
            throw VariantError(name: name, reason: error.reason, knownVariants: index.variantNames)
        }
        if case .named(let named) = variant, index.variants[named] == nil {
            throw VariantError(
                name: name, reason: "no mapping has this metadata.variant", knownVariants: index.variantNames)
        }
        return variant
    }

    /// Resolves a variant for every request (`--variant`, the admin API): as ``resolve(_:in:)``,
    /// and a JSON drift must apply to at least one base stub's body, else the error lists the
    /// fields the base stubs' JSON bodies have.
    package func resolveServerWide(_ name: String, in index: StubIndex) throws(VariantError) -> Variant {
        let variant = try resolve(name, in: index)
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

    private func unmatched(
        _ request: HTTPServerRequest, _ matchable: MatchableRequest, snapshot: StubStore.Snapshot, variant: Variant?
    ) -> HTTPReply {
        if snapshot.index.all.isEmpty && snapshot.index.refused.isEmpty {
            // WireMock's answer, word for word, when it has no stubs at all.
            record(request, matchable, variant: variant?.description, status: 404, stub: nil)
            return .response(
                HTTPResponse(
                    status: .notFound,
                    text: "No response could be served as there are no stub mappings in this WireMock instance."))
        }
        var named: String?
        if case .named(let name)? = variant { named = name }
        let misses = snapshot.index.nearMisses(for: matchable, variant: named, scenarios: scenarios)
        let response = UnmatchedReport(
            request: matchable, nearMisses: misses, variant: variant?.description,
            refused: snapshot.index.refused(matching: matchable)
        ).response(json: Self.wantsJSON(request.headers))
        record(request, matchable, variant: variant?.description, status: 404, stub: nil)
        return .response(response)
    }

    private func refuse(
        _ request: HTTPServerRequest, _ matchable: MatchableRequest, message: String, variant: String?,
        knownFields: [String]? = nil
    ) -> HTTPReply {
        record(request, matchable, variant: variant, status: 400, stub: nil)
        if Self.wantsJSON(request.headers) {
            var body: JSONObject = ["code": 400, "message": .string(message)]
            if let knownFields { body["knownFields"] = .array(knownFields.map(JSONValue.string)) }
            return .response(
                HTTPResponse(
                    status: .badRequest, headers: ["Content-Type": "application/json"],
                    body: JSONValue.object(body).serializedBytes()))
        }
        return .response(HTTPResponse(status: .badRequest, text: message + "\n"))
    }

    func record(
        _ request: HTTPServerRequest, _ matchable: MatchableRequest?, variant: String?, status: Int?,
        stub: CompiledStub?, upstream: UpstreamResult? = nil, document: FallbackAnswer? = nil
    ) {
        let target = request.head.target
        let url = target.utf8.first == UInt8(ascii: "/") ? target : String(matchable?.target ?? request.head.originForm)
        guard journal.capacity > 0 else { return }
        let now = store.clock.wallMilliseconds
        journal.append(
            LoggedRequest(
                sequence: 0, idPrefix: journal.idPrefix, method: request.method, url: url,
                headers: request.headers, body: request.body, clientAddress: request.remoteAddress,
                loggedDate: now, variant: variant, responseStatus: status, stub: stub, upstream: upstream,
                documentOperation: document?.operation, violations: document?.violations ?? []))
    }

    /// Whether the client asked for JSON rather than text.
    static func wantsJSON(_ headers: HTTPHeaders) -> Bool {
        headers.fields.contains { field in
            field.name.equalsIgnoringASCIICase("Accept")
                && (field.value.containsUTF8("application/json") || field.value.containsUTF8("+json"))
        }
    }
}
