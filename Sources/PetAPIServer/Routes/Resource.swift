import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import JSONKit

/// One kind of record the API serves (pets, vets): how it is read from a request, shown as
/// JSON and kept in the store. ``respond(to:id:)`` is the one route flow they share.
struct Resource<Fields: Sendable> {
    /// The singular noun for messages, `pet`.
    let name: String
    /// The collection segment of the path, `pets`.
    let collection: String
    /// Reads and checks the fields of a write body.
    let decode: (inout JSONWriteBody) throws(PetAPIError) -> Fields
    /// The JSON shape of the app's model.
    let encode: (Fields) -> JSONValue
    let list: () throws -> [(id: Int64, fields: Fields)]
    let find: (Int64) throws -> Fields?
    let create: (Fields) throws -> Int64
    /// Replaces the fields; false when there is no such record.
    let update: (Int64, Fields) throws -> Bool
    /// Deletes the record; false when there was none.
    let delete: (Int64) throws -> Bool

    /// `GET/POST /api/COLLECTION` (no id) and `GET/PUT/DELETE /api/COLLECTION/{id}`.
    func respond(to request: HTTPServerRequest, id: Int64?) throws -> HTTPResponse {
        guard let id else {
            try PetAPIHandler.only([.get, .head, .post], request)
            if request.method == .post {
                let fields = try fields(of: request)
                let created = try create(fields)
                return PetAPIHandler.json(
                    encode(fields), status: .created, headers: ["Location": "/api/\(collection)/\(created)"])
            }
            return PetAPIHandler.json(.array(try list().map { encode($0.fields) }))
        }
        try PetAPIHandler.only([.get, .head, .put, .delete], request)
        switch request.method {
        case .put:
            let fields = try fields(of: request)
            guard try update(id, fields) else { throw missing(id) }
            return PetAPIHandler.json(encode(fields))
        case .delete:
            guard try delete(id) else { throw missing(id) }
            return HTTPResponse(status: .noContent)
        default:
            guard let fields = try find(id) else { throw missing(id) }
            return PetAPIHandler.json(encode(fields))
        }
    }

    private func fields(of request: HTTPServerRequest) throws(PetAPIError) -> Fields {
        var body = try JSONWriteBody(request.body, headers: request.headers)
        let fields = try decode(&body)
        try body.rejectUnknownKeys()
        return fields
    }

    private func missing(_ id: Int64) -> PetAPIError { .notFound("No \(name) with id \(id)") }
}
