import APISchema
import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine

extension OpenAPIResponder {
    /// What becomes of a request before it is answered: outside the mount point, refused by
    /// routing (404, 405), refused for its credentials or its parameters and body (with the
    /// operation and the violations), or admitted to its operation (with its path values,
    /// percent-decoded, and the body request validation parsed).
    enum Admission {
        case outside
        case refused(PreparedResponse)
        case answered(FallbackAnswer)
        case admitted(route: Int, pathValues: [String: String], parsed: JSONValue?)
    }

    func admit(_ request: HTTPServerRequest) -> Admission {
        switch route(request.method, String(request.path)) {
        case .outside: return .outside
        case .refused(let response): return .refused(response)
        case .missingPathParameters(let index, let names):
            let violations = names.map(Self.missingPathParameter)
            let problem =
                documentedRefusal(
                    route: index, status: 400, accept: request.headers.first(name: "Accept"), violations: violations)
                ?? ProblemDocument.response(status: 400, operation: routeNames[index], violations: violations)
            return .answered(FallbackAnswer(problem, operation: routeNames[index], violations: violations))
        case .operation(let index, let rawPathValues):
            let name = routeNames[index]
            if let refusal = securityChecks[index]?.refusal(headers: request.headers, query: request.query) {
                return .answered(
                    FallbackAnswer(
                        unauthorized(route: index, refusal, accept: request.headers.first(name: "Accept")),
                        operation: name, violations: refusal.violations))
            }
            var parsed: JSONValue?
            switch validator?.check(
                request, operation: name, checks: routeChecks[index], rawPathValues: rawPathValues)
            {
            case .refused(let response, let violations)?:
                let documented = documentedRefusal(
                    route: index, status: response.response.status.code, accept: request.headers.first(name: "Accept"),
                    requested: Preference(request.headers, query: request.query.map(String.init)),
                    violations: violations)
                return .answered(FallbackAnswer(documented ?? response, operation: name, violations: violations))
            case .accepted(let body)?: parsed = body
            case nil: break
            }
            // What comes after validation (stateful ids and keys, callbacks, templates) reads the
            // values decoded.
            return .admitted(route: index, pathValues: PathTemplate.decoded(rawPathValues), parsed: parsed)
        }
    }
}
