/// A response of the document for which petmock cannot make a valid body: found when the
/// document loads, and answered with a 500 that says so when it is asked for.
package struct GenerationProblem: Sendable, Hashable, CustomStringConvertible {
    /// The operation, `GET /items/{id}`.
    package var operation: String
    /// The documented status, `200`.
    package var status: String
    /// The media type whose schema it is.
    package var mediaType: String
    /// The schema's JSON pointer in the document: `#/paths/~1items~1{id}/get/responses/200/content/application~1json/schema`.
    package var pointer: String
    /// Why no body can be made.
    package var reason: String

    /// Creates a problem.
    package init(operation: String, status: String, mediaType: String, pointer: String, reason: String) {
        self.operation = operation
        self.status = status
        self.mediaType = mediaType
        self.pointer = pointer
        self.reason = reason
    }

    /// Like a compiler's diagnostic: `GET /items/{id} 200: #/paths/...: reason`.
    package var description: String {
        "\(operation) \(status): \(pointer): cannot generate a valid body: \(reason)"
    }
}
