/// A response of the document for which petmock cannot make a valid body: found when the
/// document loads, and answered with a 500 that says so when it is asked for.
public struct GenerationProblem: Sendable, Hashable, CustomStringConvertible {
    /// The operation, `GET /items/{id}`.
    public var operation: String
    /// The documented status, `200`.
    public var status: String
    /// The media type whose schema it is.
    public var mediaType: String
    /// The schema's JSON pointer in the document: `#/paths/~1items~1{id}/get/responses/200/content/application~1json/schema`.
    public var pointer: String
    /// Why no body can be made.
    public var reason: String

    /// Creates a problem.
    public init(operation: String, status: String, mediaType: String, pointer: String, reason: String) {
        self.operation = operation
        self.status = status
        self.mediaType = mediaType
        self.pointer = pointer
        self.reason = reason
    }

    /// Like a compiler's diagnostic: `GET /items/{id} 200: #/paths/...: reason`.
    public var description: String {
        "\(operation) \(status): \(pointer): cannot generate a valid body: \(reason)"
    }
}
