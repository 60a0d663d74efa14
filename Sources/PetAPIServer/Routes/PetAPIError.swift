import HTTPCore
import JSONKit

/// A request the API refuses, with the `{code, message}` body it answers with.
struct PetAPIError: Error, Hashable, Sendable {
    let status: HTTPStatus
    let message: String
    var headers: HTTPHeaders = HTTPHeaders()

    static func badRequest(_ message: String) -> PetAPIError { PetAPIError(status: .badRequest, message: message) }
    static func notFound(_ message: String) -> PetAPIError { PetAPIError(status: .notFound, message: message) }

    /// `{"code": 400, "message": "..."}`, the error shape the client parses.
    var body: JSONValue {
        .object(["code": .int(Int64(status.code)), "message": .string(message)])
    }
}
