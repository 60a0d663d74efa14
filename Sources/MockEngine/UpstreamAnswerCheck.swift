import HTTPCore
import HTTPHandlerKit

/// The check of a live API's answer against what a fallback source documents for the request
/// (the validating proxy: `--proxy-unmatched` beside `--openapi`), made once the answer has
/// arrived, on the thread that completes the transfer: bounded work only.
public protocol UpstreamAnswerCheck: Sendable {
    /// The answer to send the client (the live API's, with a field naming the violations; or,
    /// strictly, a refusal instead) and how the live API's answer breaks the document.
    func check(_ response: HTTPResponse) -> (response: HTTPResponse, violations: [RequestViolation])
}

/// What a fallback source does with a request no stub matched when a live API stands behind
/// petmock (`--proxy-unmatched`): answer it itself (a refusal: security, validation), or pass
/// it on and check the live API's answer.
public enum FallbackRouting: Sendable {
    /// The source answers, as ``FallbackReplySource/reply(to:)`` does.
    case answer(FallbackAnswer)
    /// The request goes to the live API; `check` checks its answer against `operation`.
    case forward(operation: String, check: any UpstreamAnswerCheck)
}

/// The validating proxy's part of a forwarded request: the document's operation and the check
/// of the live API's answer.
package struct DocumentCheck: Sendable {
    /// The operation the request reached, `GET /items/{id}`.
    package var operation: String
    /// The check of the answer.
    package var check: any UpstreamAnswerCheck

    package init(operation: String, check: any UpstreamAnswerCheck) {
        self.operation = operation
        self.check = check
    }

    /// The reply checked: a response the live API gave goes through the check; a gateway error
    /// or a fault, petmock's own, is not the live API's answer and is left as it is.
    func check(_ reply: ProxyReply) -> (reply: ProxyReply, violations: [RequestViolation]) {
        guard case .response(let status, let headers, let body) = reply else { return (reply, []) }
        let (checked, violations) = check.check(HTTPResponse(status: status, headers: headers, body: body))
        return (.response(status: checked.status, headers: checked.headers, body: checked.body), violations)
    }
}
