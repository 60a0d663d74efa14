import HTTPCore
import HTTPHandlerKit
import JSONKit
import Platform
import Templating

/// The serving stage that runs the answering stub's state listeners (`recordState`,
/// `deleteState`), in order, on the committing thread before the answer is committed: a
/// change made by one request is there for the next. Each listener's templates are rendered
/// with the request as `request` and the answer as `response` (`status`, `body`, `headers`):
/// the stub's, or for a proxy stub the upstream's as the client gets it (the stub's
/// `headers` set on it; petmock's 502 or 504 when the upstream gave none), once it came
/// back; then its changes are applied. A change past a limit of the store, or a listener
/// whose template fails, changes nothing and is a ``RequestProblem`` of the request (the
/// answer is already chosen), and the first such of a store is told to the server's
/// subscribers.
struct StateStage: Sendable {
    /// The engine's contexts.
    let store: StateContextStore
    let clock: TimeSource
    /// Tells the server's event subscribers.
    let publish: @Sendable (StubServerEvent) -> Void

    /// Runs `stub`'s listeners for the stub's own answer; the problem to journal, if one failed.
    func record(_ stub: CompiledStub, answered served: ServedResponse, _ event: ServeEvent) -> RequestProblem? {
        let response: HTTPResponse?
        if case .prepared(let prepared, _, _) = served { response = prepared.response } else { response = nil }
        return record(stub, answered: response, event.request, event.matchable)
    }

    /// Runs `stub`'s listeners for `response` (nil for a broken connection: no status, an
    /// empty body, no headers); the problem to journal, if one failed.
    func record(
        _ stub: CompiledStub, answered response: HTTPResponse?, _ request: HTTPServerRequest,
        _ matchable: MatchableRequest
    ) -> RequestProblem? {
        let model = TemplateRequest(
            method: request.method.rawValue, url: matchable.target, headers: request.headers,
            body: request.body, baseURL: nil, pathParameters: stub.pathParameters(matchable),
            clientIP: { [matchable] in matchable.remoteAddress?.host ?? "" },
            queryParameters: matchable.queryParameters, pathTemplated: stub.usesPathTemplate,
            path: matchable.path, secure: request.isSecure)
        let context = TemplateValue.object([("request", .node(model)), ("response", Self.responseModel(response))])
        var problem: RequestProblem?
        for (index, listener) in stub.stateListeners.enumerated() {
            let refusal: String?
            switch listener.changes(context, clock: clock, store: store) {
            case .failure(let failure): refusal = failure.message
            case .success(let changes):
                refusal = changes.lazy.compactMap { store.apply($0) }.first
            }
            guard let refusal else { continue }
            let made = RequestProblem(
                .stateRefused, requested: listener.definition.action.rawValue,
                message:
                    "\(listener.definition.action.rawValue) \(index + 1) of the stub \(StubLabel.label(stub.mapping, file: nil)) "
                    + "changed nothing: \(refusal)")
            if problem == nil { problem = made }
            if store.claimRefusalLine() { publish(.stateRefused(made.message)) }
        }
        return problem
    }

    /// The answer as listeners read it: `response.status`, `response.body` (text) and
    /// `response.headers` (the first value of each name).
    private static func responseModel(_ response: HTTPResponse?) -> TemplateValue {
        guard let response else { return .object([("body", .string("")), ("headers", .object([]))]) }
        var headers: [(key: String, value: TemplateValue)] = []
        for field in response.headers where !headers.contains(where: { $0.key == field.name }) {
            headers.append((field.name, .string(field.value)))
        }
        return .object([
            ("status", .int(response.status.code)),
            ("body", .string(String(decoding: response.body, as: UTF8.self))), ("headers", .object(headers)),
        ])
    }
}
