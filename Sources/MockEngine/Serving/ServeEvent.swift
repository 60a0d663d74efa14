import HTTPCore
import HTTPHandlerKit

/// One stub request on its way through the serving stages, the files of this folder, in
/// order: select (recording, the variant or status asked for), match (the stub), answer (the
/// stub's or the document's answer, drifted, or a refusal) or forward (upstream), commit (the
/// journal and the scenario's move), then the listeners. It carries what came in, what it is
/// served from, taken once, and what select chose; ``StubEngine/reply(to:)`` runs the stages.
/// Confined to the thread that handles the request (matching caches its readings). A class:
/// every stage reads the one value, never a copy of the request it holds.
final class ServeEvent {
    /// The request as the front end gave it.
    let request: HTTPServerRequest
    /// The request as matching reads it.
    let matchable: MatchableRequest
    /// The stubs and the server-wide variant it is served from.
    let snapshot: StubStore.Snapshot
    /// The scenarios' states, which matching reads and commit moves.
    let scenarios: ScenarioStore
    /// What select chose: the variant or the status the request is answered under.
    var selection: RequestedVariant

    init(_ request: HTTPServerRequest, snapshot: StubStore.Snapshot, scenarios: ScenarioStore) {
        self.request = request
        matchable = MatchableRequest(request)
        self.snapshot = snapshot
        self.scenarios = scenarios
        selection = RequestedVariant(variant: snapshot.serverVariant, status: nil, requested: nil)
    }

    /// How the journal names what is in force for the request (``RequestedVariant/label``),
    /// read from the event's own selection.
    var variantLabel: String? { selection.variant?.description ?? selection.status.map { "code=\($0)" } }

    /// Whether the client asked for JSON rather than text.
    var wantsJSON: Bool { StubEngine.wantsJSON(request.headers) }
}

/// What commit journals of one request's answer, and what the listeners are told: the
/// status, the stub or the document's operation that answered, the variant in force, and,
/// for a forwarded request, the upstream's result and the route it took.
struct ServeOutcome: Sendable {
    /// The status the client was answered with; nil for a fault.
    var status: Int?
    /// The stub that answered or passed the request on.
    var stub: CompiledStub?
    /// The variant in force, as the journal names it (`missing:name`, `code=404`).
    var variant: String?
    /// How the request was forwarded, when it was.
    var forwarded: ForwardRoute.Kind?
    /// What the live API answered, for a forwarded request that reached it.
    var upstream: UpstreamResult? { details?.upstream }
    /// The document's answer (operation, violations), when the document answered.
    var document: FallbackAnswer? { details?.document }
    /// The operation of the document that answered or checked the answer.
    var documentOperation: String? { details?.document?.operation ?? details?.checked?.operation }
    /// How the answer breaks what the document says of it: the example's, or the live API's.
    var responseViolations: [RequestViolation] {
        details?.document?.responseViolations ?? details?.checked?.violations ?? []
    }
    /// Why petmock refused the request, when it did.
    var problem: RequestProblem? { details?.problem }
    /// Whether the request was a browser's preflight that petmock answered (`--cors`).
    var isPreflight: Bool { details?.preflight ?? false }
    /// The upstream's result, the document's answer, the refusal and the preflight, out of line: few answers
    /// have any, and inline they would make every outcome hundreds of bytes to copy.
    private var details: Details?
    /// Whether the outcome has an upstream result, a document part, a problem or a preflight.
    var hasDetails: Bool { details != nil }

    /// The outcome of an answer petmock or a stub gave.
    init(status: Int?, stub: CompiledStub? = nil, variant: String? = nil) {
        self.status = status
        self.stub = stub
        self.variant = variant
        forwarded = nil
        details = nil
    }

    /// The outcome of an answer the document gave.
    init(status: Int?, variant: String?, document: FallbackAnswer) {
        self.init(status: status, variant: variant)
        details = Details(document: document)
    }

    /// The outcome of a stub's answer with a problem of the request (a state change refused).
    init(status: Int?, stub: CompiledStub, variant: String?, problem: RequestProblem) {
        self.init(status: status, stub: stub, variant: variant)
        details = Details(problem: problem)
    }

    /// The outcome of a request petmock refused (a 400 of its own).
    init(status: Int?, variant: String?, problem: RequestProblem) {
        self.init(status: status, variant: variant)
        details = Details(problem: problem)
    }

    /// The outcome of a browser's preflight petmock answered (`--cors`).
    init(preflightAnsweredWith status: Int) {
        self.init(status: status)
        details = Details(preflight: true)
    }

    /// The outcome of a forwarded request: what the upstream answered, when it was reached,
    /// the problem of the request (a proxy stub's state change refused), if any, and, with
    /// `document`, the operation the live API's answer was checked against and its violations
    /// (the validating proxy).
    init(
        forwarded kind: ForwardRoute.Kind, status: Int?, stub: CompiledStub?, upstream: UpstreamResult?,
        problem: RequestProblem? = nil, document checked: (operation: String, violations: [RequestViolation])? = nil
    ) {
        self.status = status
        self.stub = stub
        variant = nil
        forwarded = kind
        details =
            upstream == nil && problem == nil && checked == nil
            ? nil : Details(upstream: upstream, checked: checked, problem: problem)
    }

    private final class Details: Sendable {
        let upstream: UpstreamResult?
        let document: FallbackAnswer?
        let checked: (operation: String, violations: [RequestViolation])?
        let problem: RequestProblem?
        let preflight: Bool

        init(
            upstream: UpstreamResult? = nil, document: FallbackAnswer? = nil,
            checked: (operation: String, violations: [RequestViolation])? = nil, problem: RequestProblem? = nil,
            preflight: Bool = false
        ) {
            self.upstream = upstream
            self.document = document
            self.checked = checked
            self.problem = problem
            self.preflight = preflight
        }
    }
}
