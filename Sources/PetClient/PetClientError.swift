import HTTPClient
import HTTPCore

/// What went wrong with a Pet API call, with enough detail to act on or report.
///
/// Each case says where the call failed: no HTTP response at all (``transport(_:)``), an
/// error status (``http(status:serverError:excerpt:url:)``, or ``maintenance(serverError:retryAfter:url:)``
/// for 503), a body that is not JSON (``notJSON(mediaType:reason:excerpt:url:)``), or JSON the
/// model type could not decode (``decoding(_:)``, with the coding path and the offending value).
public enum PetClientError: Error, Sendable, CustomStringConvertible {
    /// No HTTP response arrived; the transport error carries curl's message.
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

/// Why a JSON body did not decode into the expected type, and where.
public struct DecodingFailure: Sendable, Hashable, CustomStringConvertible {
    /// The URL whose body failed.
    public let url: String
    /// The type being decoded, such as `[PetJsonModel]`.
    public let type: String
    /// The coding path of the offending value, such as `[2].vetId` (empty for the body itself).
    public let path: String
    /// What was expected and what was found, such as `expected Int, found string`.
    public let problem: String
    /// A short excerpt of the offending value as JSON (for a missing key, its object).
    public let excerpt: String

    /// Creates a failure.
    public init(url: String, type: String, path: String, problem: String, excerpt: String) {
        self.url = url
        self.type = type
        self.path = path
        self.problem = problem
        self.excerpt = excerpt
    }

    /// The path written after `prefix`, with a `.` before a key: `$` gives `$[2].vetId` or
    /// `$.vetId`, and `$` alone for the body itself.
    func path(after prefix: String) -> String {
        path.isEmpty ? prefix : prefix + (path.hasPrefix("[") ? path : "." + path)
    }

    public var description: String {
        let location = path(after: "$")
        // The excerpt is JSON text: a string shows its own quotes (`found string "2"`).
        let found = excerpt.isEmpty ? "" : " \(excerpt)"
        return "\(url): cannot decode \(type) at \(location): \(problem)\(found)"
    }
}
