import StubFormat

/// What the engine decided for one request, before anything happens: which stub, which
/// variant, what it answers or where it is passed on. Computed by the select, match and
/// answer stages from the ``ServeEvent`` (``StubEngine/decide(_:)``), with no effect; the
/// engine then carries it out (``StubEngine/carryOut(_:_:)``): answered or forwarded, then
/// committed (the journal, the scenario's move).
enum StubDecision: Sendable {
    /// Recording is on: the request goes to the API being recorded.
    case record(target: String, recorder: Recorder)
    /// The request cannot be answered as asked: a 400 saying why (a variant that does not
    /// exist or does not apply, no stub for the status asked for); `knownFields`, the JSON
    /// fields there are, for a drift of a field the body lacks.
    case refuse(RequestProblem, knownFields: [String]? = nil)
    /// No stub matched: the near-miss 404, with what the fallback source says of itself when
    /// it left the request unanswered too.
    case unmatched(variant: Variant?, fallback: FallbackSummary? = nil)
    /// No stub matched, and unmatched requests go to this API (`--proxy-unmatched`).
    case passOn(target: String, check: DocumentCheck? = nil)
    /// A proxy stub matched: the request goes upstream as it says.
    case proxy(CompiledStub, ProxyDefinition)
    /// The stub's template failed to render: a 500 saying why.
    case templateFailed(CompiledStub, message: String, variant: String?)
    /// No stub matched and the fallback source answers (an OpenAPI document), drifted when a
    /// generated variant applies; `answer` says what the journal keeps (operation, violations).
    case document(ServedResponse, variant: String?, answer: FallbackAnswer)
    /// A stub answers, drifted when a generated variant applies; `variant` is what the
    /// journal records as in force.
    case answer(CompiledStub, ServedResponse, variant: String?)
    /// A browser's preflight no stub naming `OPTIONS` matched, with `--cors` on: petmock's
    /// 204 (``CORSStage``).
    case preflight(CORSStage.Preflight)

    /// The stub that matched, if one did.
    var stub: CompiledStub? {
        switch self {
        case .proxy(let stub, _), .templateFailed(let stub, _, _), .answer(let stub, _, _): stub
        case .record, .refuse, .unmatched, .passOn, .document, .preflight: nil
        }
    }
}

extension StubDecision {
    /// Whether the answer comes from an upstream (recording, `--proxy-unmatched`, a proxy stub).
    var isForwarded: Bool {
        switch self {
        case .record, .passOn, .proxy: true
        case .refuse, .unmatched, .templateFailed, .document, .answer, .preflight: false
        }
    }
}
