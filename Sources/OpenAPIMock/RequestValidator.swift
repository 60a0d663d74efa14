import APISchema
import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine

/// Checks requests against what their operations document, as Prism does: path, query, header
/// and cookie parameters (presence, then the value against the schema: type, `enum`, bounds,
/// lengths, `pattern`, items), and the body (presence, media type, schema). Every check is
/// compiled once, when the document is loaded; a request costs one pass over what it sends and
/// one bounded walk per value.
struct RequestValidator: Sendable {
    /// One operation's checks.
    final class OperationChecks: Sendable {
        let parameters: [ParameterCheck]
        let body: BodyCheck?
        /// Whether any parameter is in the query (if none, the query is not read).
        let readsQuery: Bool
        /// The query parameters' names.
        let queryNames: Set<String>

        init(parameters: [ParameterCheck], body: BodyCheck?) {
            self.parameters = parameters
            self.body = body
            readsQuery = parameters.contains { $0.location == .query }
            queryNames = Set(parameters.filter { $0.location == .query }.map(\.name))
        }
    }

    /// The most violations one refusal lists.
    static let violationLimit = 50

    /// Header parameters OpenAPI says to ignore (OpenAPI 3.1 §4.8.12.1: the media type and
    /// authorization have their own fields).
    static let ignoredHeaders: Set<String> = ["accept", "content-type", "authorization"]

    private let checks: [String: OperationChecks]

    /// The checks of the operation named `name` (nil for one the document does not have).
    func checks(named name: String) -> OperationChecks? { checks[name] }

    init(contract: Contract) {
        var checks: [String: OperationChecks] = [:]
        let validators = SchemaValidators(contract: contract)
        for operation in contract.operations {
            let parameters = operation.parameters
                .filter { $0.location != .header || !Self.ignoredHeaders.contains($0.name.lowercased()) }
                .map { ParameterCheck($0, in: contract) }
            let body = operation.requestBody.map { BodyCheck($0, in: contract, validators: validators) }
            checks[operation.name] = OperationChecks(parameters: parameters, body: body)
        }
        self.checks = checks
    }

    /// What a check of a request decided.
    enum Verdict {
        /// Valid; with its body's JSON value when the body was JSON and parsed.
        case accepted(body: JSONValue?)
        /// A problem document (400, 415 or 422) and the violations.
        case refused(PreparedResponse, [RequestViolation])
    }

    /// Whether a request keeps to its operation (the one `name`d, its `checks`,
    /// ``checks(named:)``): accepted (with the body it parsed), or refused. `rawPathValues` are
    /// the path parameters' text as sent, percent-encoded: a separator a client escaped
    /// (`a%2Cb`) is part of one value, so each is split before its pieces are decoded.
    func check(
        _ request: HTTPServerRequest, operation name: String, checks: OperationChecks?,
        rawPathValues: [String: String]
    ) -> Verdict {
        guard let checks else { return .accepted(body: nil) }
        var violations: [RequestViolation] = []
        // The query's pairs in order; each query parameter takes the values of its name (a
        // scan of a few pairs, no table of names to hash).
        let query = checks.readsQuery ? request.query.map(QueryParameters.parse) ?? [] : []
        let cookies = checks.parameters.contains { $0.location == .cookie } ? Self.cookies(request.headers) : [:]
        for parameter in checks.parameters where violations.count < Self.violationLimit {
            if parameter.readsQueryPairs {
                violations += parameter.violations(
                    query: query, others: checks.queryNames, limit: Self.violationLimit - violations.count)
                continue
            }
            let occurrences: [String]
            var encoded = false
            switch parameter.location {
            case .path:
                occurrences = rawPathValues[parameter.name].map { [$0] } ?? []
                encoded = true
            case .query: occurrences = query.compactMap { $0.name == parameter.name ? $0.value : nil }
            case .header:
                let values = request.headers.fields.filter { $0.name.equalsIgnoringASCIICase(parameter.name) }
                occurrences = values.isEmpty ? [] : [values.map(\.value).joined(separator: ",")]
            case .cookie: occurrences = cookies[parameter.name].map { [$0] } ?? []
            }
            violations += parameter.violations(
                occurrences, percentEncoded: encoded, limit: Self.violationLimit - violations.count)
        }
        var status = violations.isEmpty ? 422 : 400
        var parsed: JSONValue?
        if checks.body == nil && !request.body.isEmpty {
            // An operation with no `requestBody` takes none: what counts is the bytes received
            // (a `Content-Length` above 0, or chunks with data), not an empty chunked body.
            violations.append(Self.unexpectedBody(request))
            status = 415
        } else if let body = checks.body {
            let limit = max(1, Self.violationLimit - violations.count)
            switch body.check(request.body, contentType: request.headers.first(name: "Content-Type"), limit: limit) {
            case .valid(let value): parsed = value
            case .unsupportedMediaType(let violation):
                violations.append(violation)
                status = 415
            case .malformed(let found):
                violations += found
                status = 400
            case .invalid(let found): violations += found
            }
        }
        guard !violations.isEmpty else { return .accepted(body: parsed) }
        return .refused(
            ProblemDocument.response(status: status, operation: name, violations: violations), violations)
    }

    /// The violation of a body sent to an operation that documents none.
    private static func unexpectedBody(_ request: HTTPServerRequest) -> RequestViolation {
        let mediaType = request.headers.first(name: "Content-Type").map { " of \(ViolationText.quoted($0))" } ?? ""
        return RequestViolation(
            location: "body", expected: "no body", found: "\(request.body.count) bytes\(mediaType)",
            message: "the operation documents no request body")
    }

    /// The cookies of the `Cookie` fields, the first of a repeated name (RFC 6265 §5.4).
    private static func cookies(_ headers: HTTPHeaders) -> [String: String] {
        var cookies: [String: String] = [:]
        for (name, value) in headers.cookiePairs where cookies[name] == nil { cookies[name] = value }
        return cookies
    }
}
