import APISchema
import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine

/// The validating proxy (`--proxy-unmatched` beside `--openapi`, Prism's proxy mode): a
/// request that reaches an operation and passes its security and validation goes to the live
/// API, whose answer is checked against the operation's documented responses.
extension OpenAPIResponder {
    /// The largest body of a live API's answer that is checked (1 MiB); a larger one is
    /// reported as not checked.
    public static let maximumCheckedBody = 1 << 20

    /// A refusal (security, validation, a missing path parameter) is answered here; a request
    /// admitted to its operation is passed on with the check of the answer; a path or method
    /// the document does not have, or one outside its mount point, is passed on unchecked.
    public func route(forwarding request: HTTPServerRequest) -> FallbackRouting? {
        switch admit(request) {
        case .outside, .refused: return nil
        case .answered(let answer): return .answer(answer)
        case .admitted(let index, _, _):
            let preference = Preference(request.headers, query: request.query.map(String.init))
            return .forward(
                operation: routeNames[index],
                check: LiveAnswerCheck(responder: self, route: index, headers: request.headers, preference: preference))
        }
    }

    /// How the live API's `response` to a request of route `index` breaks its operation: a
    /// status it does not document (nor its range, nor `default`), a media type its response
    /// does not list, a missing body where one is documented, a JSON body that is not
    /// well-formed or breaks the schema (at most ``ResponseCheck/limit``).
    func violations(ofLive response: HTTPResponse, route index: Int) -> [RequestViolation] {
        let operation = routes[index].operation
        let code = response.status.code
        guard let status = operation.documentedStatus(for: code) else {
            return [
                RequestViolation(
                    location: "response.status",
                    expected: "one of \(operation.documentedStatuses.joined(separator: ", "))",
                    found: String(code),
                    message: "the live API answered with a status \(operation.name) does not document")
            ]
        }
        guard let documented = operation.responses.first(where: { $0.status == status }) else { return [] }
        let contents = Self.contents(of: documented)
        guard !contents.isEmpty else { return [] }
        guard !response.body.isEmpty else {
            return [
                RequestViolation(
                    location: "response.body", expected: "a body", found: "nothing",
                    message: "the live API's answer has no body; \(operation.name) \(status) documents one")
            ]
        }
        let sent = response.headers.first(name: "Content-Type")
        let type = (sent ?? "application/octet-stream").mediaTypeEssence
        guard let content = Self.documented(type, among: contents) else {
            return [
                RequestViolation(
                    location: "response.header.Content-Type",
                    expected: "one of \(contents.map(\.mediaType).joined(separator: ", "))",
                    found: sent.map(ViolationText.quoted) ?? "nothing",
                    message: "the live API's media type is not documented for \(operation.name) \(status)")
            ]
        }
        guard let schema = content.schema, ResponseCheck.isJSON(type) else { return [] }
        guard response.body.count <= Self.maximumCheckedBody else {
            return [
                RequestViolation(
                    location: "response.body", expected: "at most \(Self.maximumCheckedBody) bytes to check",
                    found: "\(response.body.count) bytes", message: "the live API's answer is too large to check")
            ]
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: response.body)
        } catch {
            return [
                RequestViolation(
                    location: "response.body", expected: "well-formed JSON", found: ViolationText.found("\(error)"),
                    message: "the live API's answer is not well-formed JSON")
            ]
        }
        let key = "\(operation.name) \(status) \(content.mediaType)"
        let check =
            responseChecks.withLock { $0[key] }
            ?? {
                let made = ResponseCheck(schema, in: contract)
                responseChecks.withLock { $0[key] = made }
                return made
            }()
        return check.violations(value)
    }

    /// The documented content for a media type: the same type, else `type/*`, else `*/*`.
    static func documented(_ type: String, among contents: [ResponseContent]) -> ResponseContent? {
        let essences = contents.map { $0.mediaType.mediaTypeEssence }
        if let index = essences.firstIndex(of: type) { return contents[index] }
        let major = type.split(separator: "/").first.map { $0 + "/*" } ?? ""
        let index = essences.firstIndex(of: major) ?? essences.firstIndex(of: "*/*")
        return index.map { contents[$0] }
    }
}

/// The check of a live API's answer to one operation: the answer sent on with a
/// `Petmock-Violations` field naming what breaks the document, or, with `strictResponses`
/// (`--errors`), a 502 problem listing the violations instead.
struct LiveAnswerCheck: UpstreamAnswerCheck {
    let responder: OpenAPIResponder
    let route: Int
    /// The request's fields and preference, for the document's answer to a 501.
    let headers: HTTPHeaders
    let preference: Preference

    func check(_ response: HTTPResponse) -> (response: HTTPResponse, violations: [RequestViolation]) {
        // A 501 the operation does not name (as 501 or 5XX; `default` does not count) says the
        // live API has not implemented it yet: the document answers instead, as Prism's proxy does.
        let named = responder.routes[route].operation.responses.contains {
            $0.status == "501" || $0.status.uppercased() == "5XX"
        }
        if response.status.code == 501, !named {
            return (responder.answer(route: route, headers: headers, preference: preference).response, [])
        }
        let violations = responder.violations(ofLive: response, route: route)
        guard !violations.isEmpty else { return (response, []) }
        let operation = responder.routeNames[route]
        guard !responder.strictResponses else {
            let problem = ProblemDocument.response(
                status: 502, kind: ProblemDocument.invalidResponse,
                detail: "The live API's answer to \(operation) breaks the document: "
                    + (violations.first?.description ?? "")
                    + (violations.count > 1 ? " (and \(violations.count - 1) more)" : ""),
                members: [
                    "operation": .string(operation), "upstreamStatus": .int(Int64(response.status.code)),
                    "violations": ProblemDocument.listed(violations),
                ])
            return (problem.response, violations)
        }
        var checked = response
        checked.headers.replaceOrAdd(
            name: "Petmock-Violations", value: OpenAPIResponder.violationsField(violations))
        return (checked, violations)
    }
}
