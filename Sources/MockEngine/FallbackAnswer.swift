import HTTPHandlerKit

/// A fallback source's answer to one request: the response, prepared (and usually reused),
/// and what the journal keeps of it.
public struct FallbackAnswer: Sendable {
    /// The response.
    public var response: PreparedResponse
    /// The operation that answered, `GET /items/{id}`; nil when none did (a path or method
    /// the source does not document).
    public var operation: String?
    /// How the request breaks what the operation documents; not empty when the response
    /// refuses it.
    public var violations: [RequestViolation]
    /// How the answer breaks what the operation documents for it (an example that breaks its
    /// own response schema, a live API's answer through the validating proxy); located under
    /// `response` (`response.body.$.id`).
    public var responseViolations: [RequestViolation]
    /// The requests to send once the answer is written (the operation's callbacks).
    public var callbacks: [DocumentCallback]

    /// Creates an answer.
    public init(
        _ response: PreparedResponse, operation: String? = nil, violations: [RequestViolation] = [],
        responseViolations: [RequestViolation] = [], callbacks: [DocumentCallback] = []
    ) {
        self.response = response
        self.operation = operation
        self.violations = violations
        self.responseViolations = responseViolations
        self.callbacks = callbacks
    }
}
