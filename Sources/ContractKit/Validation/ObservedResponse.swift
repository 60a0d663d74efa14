import APISchema
import HTTPCore
import JSONKit

/// A response to check against the contract: from the network, a stub file or a test.
public struct ObservedResponse: Sendable, Hashable {
    /// Where it came from: the URL called, or the stub file.
    public var url: String
    /// The status code.
    public var status: Int
    /// The `Content-Type` header value, or nil when there was none.
    public var contentType: String?
    /// The body bytes (content coding already removed).
    public var body: [UInt8]

    /// Creates a response.
    public init(url: String, status: Int, contentType: String? = "application/json", body: [UInt8]) {
        self.url = url
        self.status = status
        self.contentType = contentType
        self.body = body
    }

    /// Creates a response from one the HTTP client received.
    public init(_ response: HTTPClientResponse, url: String) {
        self.init(
            url: response.url.isEmpty ? url : response.url, status: response.status.code,
            contentType: response.headers["Content-Type"], body: response.body)
    }

    /// The media type without parameters, lower-cased: `application/json`.
    public var mediaType: String? {
        guard let type = contentType?.mediaTypeEssence else { return nil }
        return type.isEmpty ? nil : type
    }

    /// The status with its reason phrase, `404 Not Found`.
    public var statusText: String {
        HTTPStatus(code: status).description
    }
}

/// Which statuses count as expected when checking a response.
public enum StatusExpectation: Sendable, Hashable {
    /// Any status the operation documents (a stub's 404 for an unknown id is fine).
    case documented
    /// Only a 2xx status; the reason says why (`vetId 7 came from GET /pets`).
    case success(reason: String)
}

/// The outcome of checking one response.
public struct ResponseValidation: Sendable {
    /// Every finding, repeats across array items collapsed.
    public var findings: [Finding]
    /// The parsed body, when it was JSON (for values later operations need).
    public var body: JSONValue?

    /// Creates an outcome.
    public init(findings: [Finding], body: JSONValue?) {
        self.findings = findings
        self.body = body
    }
}
