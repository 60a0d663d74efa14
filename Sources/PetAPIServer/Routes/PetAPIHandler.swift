import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import JSONKit

/// The reference Pet API: pets and vets in a ``PetStore``, served under `/api`, plus `/health`.
///
/// Routes: `GET/POST /api/pets`, `GET/PUT/DELETE /api/pets/{id}`, the same for `/api/vets`.
/// Bodies are shaped as the app's JSON models (`firstName`, `lastName`, `vetId`;
/// `firstName`, `lastName`, `title`); refusals are `{code, message}` naming the field.
///
/// ```swift
/// let store = try PetStore(path: "petapi.sqlite")
/// let server = HTTPServer(configuration: HTTPServerConfiguration(port: 8081), handler: PetAPIHandler(store: store))
/// try server.start()
/// ```
package struct PetAPIHandler: HTTPHandler {
    private let store: PetStore

    /// Creates the handler over a store.
    package init(store: PetStore) {
        self.store = store
    }

    // Store calls run on the event loop: each is one short SQLite statement or transaction
    // on a WAL database, far shorter than a thread hop would be.
    package func reply(to request: HTTPServerRequest) -> HTTPReply {
        .response(response(to: request))
    }

    /// The response to one request: the route's, or the refusal as `{code, message}`.
    package func response(to request: HTTPServerRequest) -> HTTPResponse {
        do {
            return try route(request)
        } catch {
            let refusal: PetAPIError =
                switch error {
                case let error as PetAPIError: error
                case let error as PetStoreError: error.apiError
                default: PetAPIError(status: .internalServerError, message: "\(error)")
                }
            return PetAPIHandler.json(refusal.body, status: refusal.status, headers: refusal.headers)
        }
    }

    private func route(_ request: HTTPServerRequest) throws -> HTTPResponse {
        let segments = request.path.split(separator: "/", omittingEmptySubsequences: true)
        if segments == ["health"] {
            try only([.get, .head], request)
            return PetAPIHandler.json(.object(["status": "ok", "database": .string(try store.integrityCheck())]))
        }
        guard segments.count >= 2, segments.count <= 3, segments[0] == "api" else {
            throw PetAPIError.notFound("No route for '\(request.path)'")
        }
        switch segments[1] {
        case "pets": return try respond(Resource.pets(in: store), request, segments)
        case "vets": return try respond(Resource.vets(in: store), request, segments)
        default:
            throw PetAPIError.notFound(
                "No resource '\(segments[1])' in '\(request.path)'; resources: "
                    + Self.collections.map { "/api/\($0)" }.joined(separator: ", "))
        }
    }

    /// The collections the API serves, as their path segments.
    static let collections = ["pets", "vets"]

    /// The resource's answer, the id (when the path has one) read first.
    private func respond<Fields>(
        _ resource: Resource<Fields>, _ request: HTTPServerRequest, _ segments: [Substring]
    ) throws -> HTTPResponse {
        guard segments.count == 3 else { return try resource.respond(to: request, id: nil) }
        guard let id = Self.resourceID(segments[2]) else {
            throw PetAPIError.notFound("No \(resource.name) with id '\(segments[2])'")
        }
        return try resource.respond(to: request, id: id)
    }

    /// The id a path segment names: canonical decimal digits only, as the API writes ids (no
    /// sign, no leading zero, no white space, no percent-escape), from 1 up to `Int64.max`.
    /// Anything else names no pet or vet (404), so `/api/pets/+1` and `/api/pets/01` are not
    /// pet 1; ids start at 1, so "0" names none either.
    static func resourceID(_ segment: Substring) -> Int64? {
        let utf8 = segment.utf8
        guard let first = utf8.first, first >= UInt8(ascii: "1"), first <= UInt8(ascii: "9"), utf8.count <= 19,
            utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return Int64(segment)
    }

    static func only(_ methods: [HTTPMethod], _ request: HTTPServerRequest) throws(PetAPIError) {
        guard methods.contains(request.method) else {
            var error = PetAPIError(
                status: .methodNotAllowed, message: "Method '\(request.method)' not allowed on '\(request.path)'")
            error.headers.add(name: "Allow", value: methods.map(\.rawValue).joined(separator: ", "))
            throw error
        }
    }

    private func only(_ methods: [HTTPMethod], _ request: HTTPServerRequest) throws(PetAPIError) {
        try PetAPIHandler.only(methods, request)
    }

    static func json(_ value: JSONValue, status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse
    {
        var all = headers
        all.add(name: "Content-Type", value: "application/json")
        return HTTPResponse(status: status, headers: all, body: value.serializedBytes(), compression: .gzipIfAccepted)
    }
}

extension PetStoreError {
    /// Unknown vets named by a pet write are the client's mistake; anything else is ours.
    var apiError: PetAPIError {
        switch self {
        case .unknownVet(let id): PetAPIError(status: .unprocessableContent, message: "vetId: no vet with id \(id)")
        case .database(let error): PetAPIError(status: .internalServerError, message: error.description)
        }
    }
}
