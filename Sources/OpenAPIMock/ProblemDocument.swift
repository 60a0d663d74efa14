import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine

/// petmock's own answers in document mode, as `application/problem+json` documents (RFC 9457
/// §3: `type`, `title`, `status`, `detail`): refusing an invalid request, with the extension
/// members `operation` and `violations` (each `location`, `expected`, `found`, `message`), and
/// the 404, 405, 406 and 500 it answers itself.
enum ProblemDocument {
    /// The problem types, by status.
    static func type(of status: Int) -> (uri: String, title: String) {
        switch status {
        case 401: ("urn:petmock:problem:unauthorized", "Unauthorized")
        case 404: ("urn:petmock:problem:not-found", "Not found")
        case 405: ("urn:petmock:problem:method-not-allowed", "Method not allowed")
        case 406: ("urn:petmock:problem:not-acceptable", "Not acceptable")
        case 500: ("urn:petmock:problem:cannot-generate", "Cannot generate the answer")
        case 415: ("urn:petmock:problem:unsupported-media-type", "Unsupported media type")
        case 422: ("urn:petmock:problem:invalid-body", "Invalid request body")
        default: ("urn:petmock:problem:invalid-request", "Invalid request")
        }
    }

    /// The 500 of a body its media type cannot carry (an object under `text/plain`).
    static let cannotSerialize = (uri: "urn:petmock:problem:cannot-serialize", title: "Cannot send the body")
    /// The 500 of an answer that breaks its own response schema (`--errors`).
    static let invalidResponse = (uri: "urn:petmock:problem:invalid-response", title: "Invalid response")

    /// A problem document of petmock's own answer (404, 405, 406, 500): `detail` says what
    /// happened, `members` are extension members beside it, `headers` go beside its
    /// `Content-Type` (a 405's `Allow`); `kind` is its type and title when the status alone
    /// does not say (a 500 has three causes).
    static func response(
        status: Int, kind: (uri: String, title: String)? = nil, detail: String, members: JSONObject = [:],
        headers: HTTPHeaders = [:]
    ) -> PreparedResponse {
        let (uri, title) = kind ?? type(of: status)
        var body: JSONObject = [
            "type": .string(uri), "title": .string(title), "status": .int(Int64(status)), "detail": .string(detail),
        ]
        for member in members { body[member.key] = member.value }
        var fields: HTTPHeaders = ["Content-Type": "application/problem+json"]
        for field in headers.fields { fields.add(name: field.name, value: field.value) }
        return PreparedResponse(
            HTTPResponse(
                status: HTTPStatus(code: status), headers: fields, body: JSONValue.object(body).serializedBytes()))
    }

    /// The problem document refusing a request to `operation`, with `headers` besides its
    /// `Content-Type` (a 401's `WWW-Authenticate`).
    static func response(
        status: Int, operation: String, violations: [RequestViolation], headers: HTTPHeaders = [:]
    ) -> PreparedResponse {
        let (uri, title) = type(of: status)
        let more = violations.count - 1
        let what = status == 401 ? "meet the security of" : "follow"
        let detail =
            "The request does not \(what) \(operation) as documented: \(violations.first?.description ?? "")"
            + (more > 0 ? " (and \(more) more)" : "")
        let body: JSONObject = [
            "type": .string(uri), "title": .string(title), "status": .int(Int64(status)), "detail": .string(detail),
            "operation": .string(operation), "violations": listed(violations),
        ]
        var fields: HTTPHeaders = ["Content-Type": "application/problem+json"]
        for field in headers.fields { fields.add(name: field.name, value: field.value) }
        return PreparedResponse(
            HTTPResponse(
                status: HTTPStatus(code: status), headers: fields, body: JSONValue.object(body).serializedBytes()))
    }

    /// Violations as the `violations` member lists them.
    static func listed(_ violations: [RequestViolation]) -> JSONValue {
        .array(
            violations.map { violation in
                [
                    "location": .string(violation.location), "expected": .string(violation.expected),
                    "found": .string(violation.found), "message": .string(violation.message),
                ]
            })
    }
}
