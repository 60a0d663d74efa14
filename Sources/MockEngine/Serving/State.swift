import HTTPCore
import HTTPHandlerKit
import JSONKit
import Platform
import Templating

/// The serving stage that runs the answering stub's state listeners (`recordState`,
/// `deleteState`), in order, on the committing thread before the answer is committed: a
/// change made by one request is there for the next. Each listener's templates are rendered
/// with the request as `request` and the stub's answer as `response` (`body`, `headers`),
/// then its changes applied; a change past a limit of the store, or a listener whose template
/// fails, changes nothing and is a ``RequestProblem`` of the request (the answer is the
/// stub's, already chosen), and the first such of a store is told to the server's
/// subscribers.
enum StateStage {
    /// Runs `stub`'s listeners for one answer; the problem to journal, if one failed.
    static func record(
        _ stub: CompiledStub, answered served: ServedResponse, _ event: ServeEvent, store: StateContextStore,
        clock: TimeSource, publish: @Sendable (StubServerEvent) -> Void
    ) -> RequestProblem? {
        let request = event.request
        let model = TemplateRequest(
            method: request.method.rawValue, url: event.matchable.target, headers: request.headers,
            body: request.body, baseURL: nil, pathParameters: stub.pathParameters(event.matchable),
            clientIP: { [matchable = event.matchable] in matchable.remoteAddress?.host ?? "" },
            queryParameters: event.matchable.queryParameters, pathTemplated: stub.usesPathTemplate,
            path: event.matchable.path, secure: request.isSecure)
        let context = TemplateValue.object([("request", .node(model)), ("response", responseModel(served))])
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

    /// The answer as listeners read it: `response.body` (text) and `response.headers`.
    private static func responseModel(_ served: ServedResponse) -> TemplateValue {
        guard case .prepared(let prepared, _, _) = served else {
            return .object([("body", .string("")), ("headers", .object([]))])
        }
        let response = prepared.response
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
