/// What a request asked for that the stubs cannot give, so petmock refused it with a 400 of
/// its own: a variant no stub has, one that does not apply, an unreadable `Prefer`, a status
/// no stub answers with; or, while recording an API mounted at its base path, a 404 for a
/// path outside it. The journal labels the request by its kind, and
/// `GET /__admin/petmock/problems` lists it beside the load problems.
public struct RequestProblem: Sendable, Hashable {
    /// What kind of problem, as the journal and the dashboard label the request.
    public enum Kind: String, Sendable, Hashable {
        /// `X-Petmock-Variant` or `Prefer: example=` names a variant no stub has, or one that
        /// cannot be read.
        case unknownVariant = "unknown variant"
        /// The variant named does not apply to the stub that matched (a drift of a field its
        /// body lacks, a drift of a proxy stub).
        case inapplicableVariant = "variant does not apply"
        /// `Prefer: code=` is not a status code.
        case invalidPreference = "invalid Prefer header"
        /// `Prefer: code=NNN` asks for a status no stub matching the request answers with.
        case unansweredStatus = "no stub answers the status"
        /// While recording with the target's base path mounted, the path is outside it.
        case outsideRecordedAPI = "outside the recorded API"
        /// The answering stub's `recordState` or `deleteState` changed nothing: a limit of the
        /// state store, or a template that failed. The request was answered by the stub.
        case stateRefused = "state change refused"
    }

    /// The status of the refusal: 404 for a path outside the recorded API, else 400.
    public var status: Int { kind == .outsideRecordedAPI ? 404 : 400 }

    /// What kind of problem it is.
    public let kind: Kind
    /// What the request asked for, as the journal names it (the variant, `code=404`); nil
    /// when it could not be read.
    public let requested: String?
    /// The message of the 400.
    public let message: String

    /// Creates a problem.
    public init(_ kind: Kind, requested: String?, message: String) {
        self.kind = kind
        self.requested = requested
        self.message = message
    }
}

/// A request problem as ``Admin/requestProblems()`` lists it: the first request that had it
/// (`GET /api/pets`) and how many requests did.
public struct RequestProblemCount: Sendable, Hashable {
    /// The problem.
    public let problem: RequestProblem
    /// The first request that had it, `GET /api/pets`.
    public let request: String
    /// How many requests had it.
    public internal(set) var count: Int

    /// Creates a count.
    public init(problem: RequestProblem, request: String, count: Int) {
        self.problem = problem
        self.request = request
        self.count = count
    }
}
