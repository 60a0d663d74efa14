import HTTPCore
import HTTPHandlerKit
import JSONKit

/// The third serving stage: what answers, as a decision (the stub's answer rendered and
/// drifted, the document's, a refusal), then the reply a decision that petmock answers itself
/// becomes, with what commit journals of it. Functions of values; forwarding is the next file.
enum AnswerStage {
    /// What the stub that matched answers: passed on (a proxy stub), rendered (a template),
    /// drifted (a generated variant), or refused (a variant asked for that does not apply).
    @inline(__always) static func answer(_ stub: CompiledStub, _ event: ServeEvent) -> StubDecision {
        if let proxy = stub.mapping.response.proxy {
            if let requested = event.selection.requested, let variant = event.selection.variant, variant.isGenerated {
                return .refuse(
                    RequestProblem(
                        .inapplicableVariant, requested: requested,
                        message: "Variant '\(requested)' does not apply: the stub that matched passes the request on "
                            + "to \(proxy.baseURL) (proxyBaseUrl), and petmock drifts canned answers only"))
            }
            return .proxy(stub, proxy)
        }
        let base: ServedResponse
        if let template = stub.template {
            switch template.render(event.request, event.matchable, stub: stub, state: event.scenarios.contexts) {
            case .success(let rendered): base = rendered
            case .failure(let failure):
                return .templateFailed(stub, message: failure.message, variant: event.selection.variant?.description)
            }
        } else {
            base = stub.served
        }
        guard let variant = event.selection.variant, variant.isGenerated else {
            return .answer(stub, base, variant: event.variantLabel)
        }
        switch drift(base, of: stub, under: variant, named: event.selection.requested) {
        case .served(let served): return .answer(stub, served, variant: event.variantLabel)
        case .refused(let refusal): return refusal
        }
    }

    /// The document's answer to a request no stub matched, drifted as a stub's answer is; a
    /// refused request's problem document is not the document's answer, so no drift applies.
    static func answer(_ answer: FallbackAnswer, under selection: RequestedVariant) -> StubDecision {
        let base = ServedResponse.prepared(answer.response, .none, nil)
        guard let variant = selection.variant, variant.isGenerated, answer.violations.isEmpty else {
            return .document(base, variant: selection.label, answer: answer)
        }
        switch drift(base, of: nil, under: variant, named: selection.requested) {
        case .served(let served): return .document(served, variant: selection.label, answer: answer)
        case .refused(let refusal): return refusal
        }
    }

    /// What a drift made of an answer: the drifted answer, or the refusal of a drift that
    /// does not apply.
    private enum Drifted {
        case served(ServedResponse)
        case refused(StubDecision)
    }

    /// The one drift path, for stubs' and the document's answers alike: the answer under a
    /// generated variant (a fixed stub's from its cache, a rendered or document one made now).
    /// A drift the request asked for by name (`requested`) either applies or is refused, never
    /// served as the unchanged body; a server-wide one leaves such answers alone.
    private static func drift(
        _ base: ServedResponse, of stub: CompiledStub?, under variant: Variant, named requested: String?
    ) -> Drifted {
        let served: ServedResponse
        if let stub, stub.template == nil {
            served = stub.served(under: variant)
        } else {
            served = DriftGenerator.apply(variant, to: base, stub: stub?.mapping)
        }
        if let requested, DriftGenerator.isUnchanged(served, from: base),
            let refusal = DriftGenerator.refusal(of: variant, named: requested, for: base)
        {
            return .refused(
                .refuse(
                    RequestProblem(.inapplicableVariant, requested: requested, message: refusal.description),
                    knownFields: refusal.knownFields))
        }
        return .served(served)
    }

    /// The reply to a decision petmock answers itself (not `record`, `passOn` or `proxy`,
    /// which go upstream) and what commit journals of it. A delay is drawn here, once: the
    /// stub's own, with the global settings' (`delaying`) where the stub sets none; the
    /// document's answers and petmock's own are not delayed.
    @inline(__always) static func reply(
        to decision: StubDecision, _ event: ServeEvent, delaying: @autoclosure () -> GlobalSettings?
    ) -> (HTTPReply, ServeOutcome) {
        switch decision {
        case .answer(let stub, let served, let variant):
            let own = served.delay
            let delay = delaying().map { $0.delay(own, of: stub.mapping.response) } ?? own
            return (served.reply(delayedBy: delay), ServeOutcome(status: served.status, stub: stub, variant: variant))
        case .document(let served, let variant, let answer):
            return (
                served.reply(delayedBy: served.delay),
                ServeOutcome(status: served.status, variant: variant, document: answer)
            )
        case .templateFailed(let stub, let message, let variant):
            return (
                .response(Self.stubFailed(stub, message)), ServeOutcome(status: 500, stub: stub, variant: variant)
            )
        case .refuse(let problem, let knownFields):
            return (
                .response(refusal(problem, knownFields: knownFields, json: event.wantsJSON)),
                ServeOutcome(status: problem.status, variant: problem.requested, problem: problem)
            )
        case .unmatched(let variant, let fallback):
            return (
                .response(unmatched(event, variant: variant, fallback: fallback)),
                ServeOutcome(status: 404, variant: variant?.description)
            )
        case .preflight(let preflight):
            return (.response(CORSStage.response(to: preflight)), ServeOutcome(preflightAnsweredWith: 204))
        case .record, .passOn, .proxy:
            preconditionFailure("a forwarded decision is answered by ForwardStage")
        }
    }

    /// The 500 of a stub whose template (of its answer or of its proxy's base URL) failed.
    static func stubFailed(_ stub: CompiledStub, _ message: String) -> HTTPResponse {
        HTTPResponse(status: HTTPStatus(code: 500), text: "petmock: stub \(stub.mapping.id): \(message)\n")
    }

    /// The refusal of a request asking for what cannot be given (a 400, or a 404 for a path
    /// outside a recorded API), as text or JSON.
    private static func refusal(_ problem: RequestProblem, knownFields: [String]?, json: Bool) -> HTTPResponse {
        let status = HTTPStatus(code: problem.status)
        guard json else { return HTTPResponse(status: status, text: problem.message + "\n") }
        var body: JSONObject = ["code": .int(Int64(problem.status)), "message": .string(problem.message)]
        if let knownFields { body["knownFields"] = .array(knownFields.map(JSONValue.string)) }
        return HTTPResponse(
            status: status, headers: ["Content-Type": "application/json"],
            body: JSONValue.object(body).serializedBytes())
    }

    /// The 404 of a request no stub matched: the near-miss report (with the mappings refused at
    /// load that would have matched, or every one when no stub loaded), or WireMock's words
    /// when there are no stubs at all, none was refused and no fallback source says where it
    /// serves (an OpenAPI document's mount point).
    private static func unmatched(_ event: ServeEvent, variant: Variant?, fallback: FallbackSummary?) -> HTTPResponse {
        let index = event.snapshot.index
        if index.all.isEmpty && index.refused.isEmpty && fallback == nil {
            // WireMock's answer, word for word, when it has no stubs at all.
            return HTTPResponse(
                status: .notFound,
                text: "No response could be served as there are no stub mappings in this WireMock instance.")
        }
        var named: String?
        if case .named(let name)? = variant { named = name }
        let misses = index.nearMisses(for: event.matchable, variant: named, scenarios: event.scenarios)
        let refused = index.refused(matching: event.matchable)
        var report = UnmatchedReport(
            request: event.matchable, nearMisses: misses, variant: variant?.description, refused: refused)
        if index.all.isEmpty { report.otherRefused = index.refused.filter { !$0.matches(event.matchable) } }
        report.fallback = fallback
        return report.response(json: event.wantsJSON)
    }
}

extension ServedResponse {
    /// The delay the answer is given with.
    var delay: StubDelay {
        switch self {
        case .prepared(_, let delay, _), .fault(_, let delay): delay
        }
    }

    /// The answer as a reply, after `delay`, drawn now.
    @inline(__always) func reply(delayedBy delay: StubDelay) -> HTTPReply {
        switch self {
        case .prepared(let prepared, _, let dribble):
            HTTPReply.prepared(prepared, dribble: dribble).delayed(by: delay.httpDelay())
        case .fault(let fault, _):
            HTTPReply.fault(fault).delayed(by: delay.httpDelay())
        }
    }
}
