import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine

/// The answer refusing an invalid request: an `application/problem+json` document (RFC 9457
/// §3: `type`, `title`, `status`, `detail`) with petmock's extension members `operation` and
/// `violations` (each `location`, `expected`, `found`, `message`).
enum ProblemDocument {
    /// The problem types, by status.
    static func type(of status: Int) -> (uri: String, title: String) {
        switch status {
        case 401: ("urn:petmock:problem:unauthorized", "Unauthorized")
        case 415: ("urn:petmock:problem:unsupported-media-type", "Unsupported media type")
        case 422: ("urn:petmock:problem:invalid-body", "Invalid request body")
        default: ("urn:petmock:problem:invalid-request", "Invalid request")
        }
    }

    /// The problem document refusing a request to `operation`, with `headers` besides its
    /// `Content-Type` (a 401's `WWW-Authenticate`).
    static func response(
        status: Int, operation: String, violations: [RequestViolation], headers: HTTPHeaders = [:]
    ) -> PreparedResponse {
        let (uri, title) = type(of: status)
        let listed: [JSONValue] = violations.map { violation in
            [
                "location": .string(violation.location), "expected": .string(violation.expected),
                "found": .string(violation.found), "message": .string(violation.message),
            ]
        }
        let more = violations.count - 1
        let what = status == 401 ? "meet the security of" : "follow"
        let detail =
            "The request does not \(what) \(operation) as documented: \(violations.first?.description ?? "")"
            + (more > 0 ? " (and \(more) more)" : "")
        let body: JSONObject = [
            "type": .string(uri), "title": .string(title), "status": .int(Int64(status)), "detail": .string(detail),
            "operation": .string(operation), "violations": .array(listed),
        ]
        var fields: HTTPHeaders = ["Content-Type": "application/problem+json"]
        for field in headers.fields { fields.add(name: field.name, value: field.value) }
        return PreparedResponse(
            HTTPResponse(
                status: HTTPStatus(code: status), headers: fields, body: JSONValue.object(body).serializedBytes()))
    }
}
