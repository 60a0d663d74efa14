import HTTPCore

/// What went wrong with an API call, with enough detail to act on or report.
///
/// Each case says where the call failed: no HTTP response at all (``transport(_:)``), an
/// error status (``http(status:serverError:excerpt:url:)``, or ``maintenance(serverError:retryAfter:url:)``
/// for 503), a body that is not JSON (``notJSON(mediaType:reason:excerpt:url:)``), or JSON the
/// model type could not decode (``decoding(_:)``, with the coding path and the offending value).
public enum EndpointError: Error, Sendable, CustomStringConvertible {
    /// No HTTP response arrived; the transport error says why, in the transport's words.
    case transport(HTTPClientError)
    /// The server answered with a status outside 200..<300; `serverError` is the parsed error
    /// body (the endpoint's ``Endpoint/ErrorBody``) when there was one, `excerpt` the body's start.
    case http(status: HTTPStatus, serverError: (any APIErrorBody)?, excerpt: String, url: String)
    /// The server answered 503 Service Unavailable: down for maintenance.
    case maintenance(serverError: (any APIErrorBody)?, retryAfter: String?, url: String)
    /// The body is not JSON: the wrong media type, an empty body, or bytes that do not parse.
    case notJSON(mediaType: String?, reason: String, excerpt: String, url: String)
    /// The body is JSON but the response type could not be decoded from it.
    case decoding(DecodingFailure)
    /// The request could not be built (a body that does not encode, a file that cannot be read).
    case invalidRequest(String)
    /// The Swift task was cancelled.
    case cancelled

    public var description: String {
        switch self {
        case .transport(let error):
            return "\(error.url): \(error.message)"
        case .http(let status, let serverError, let excerpt, let url):
            let detail = serverError.map { ": \($0)" } ?? (excerpt.isEmpty ? "" : ": '\(excerpt)'")
            return "\(url): HTTP \(status)\(detail)"
        case .maintenance(let serverError, let retryAfter, let url):
            var text = "\(url): the service is down for maintenance (503)"
            if let serverError { text += ": \(serverError)" }
            if let retryAfter { text += "; retry after '\(retryAfter)'" }
            return text
        case .notJSON(_, let reason, let excerpt, let url):
            return "\(url): expected a JSON body, found \(reason)" + (excerpt.isEmpty ? "" : ": '\(excerpt)'")
        case .decoding(let failure):
            return failure.description
        case .invalidRequest(let message):
            return "invalid request: \(message)"
        case .cancelled:
            return "the request was cancelled"
        }
    }
}
