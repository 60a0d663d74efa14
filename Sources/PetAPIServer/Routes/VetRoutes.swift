import HTTPCore
import HTTPServer
import JSONKit

/// `/api/vets` and `/api/vets/{id}`.
struct VetRoutes {
    let store: PetStore

    func respond(to request: HTTPServerRequest, id: Int64?) throws -> HTTPResponse {
        guard let id else {
            try PetAPIHandler.only([.get, .head, .post], request)
            if request.method == .post {
                let created = try store.createVet(try VetRoutes.fields(request))
                return PetAPIHandler.json(
                    VetRoutes.json(created.fields), status: .created, headers: ["Location": "/api/vets/\(created.id)"])
            }
            return PetAPIHandler.json(.array(try store.vets().map { VetRoutes.json($0.fields) }))
        }
        try PetAPIHandler.only([.get, .head, .put, .delete], request)
        switch request.method {
        case .put:
            guard let updated = try store.updateVet(id: id, try VetRoutes.fields(request)) else { throw missing(id) }
            return PetAPIHandler.json(VetRoutes.json(updated.fields))
        case .delete:
            guard try store.deleteVet(id: id) else { throw missing(id) }
            return HTTPResponse(status: .noContent)
        default:
            guard let vet = try store.vet(id: id) else { throw missing(id) }
            return PetAPIHandler.json(VetRoutes.json(vet.fields))
        }
    }

    private func missing(_ id: Int64) -> PetAPIError { .notFound("No vet with id \(id)") }

    static func fields(_ request: HTTPServerRequest) throws(PetAPIError) -> VetFields {
        var body = try RequestBody(request.body, headers: request.headers)
        let fields = VetFields(
            firstName: try body.requiredString("firstName"), lastName: try body.requiredString("lastName"),
            title: try body.optionalString("title"))
        try body.rejectUnknownKeys()
        return fields
    }

    static func json(_ vet: VetFields) -> JSONValue {
        .object([
            "firstName": .string(vet.firstName), "lastName": .string(vet.lastName),
            "title": vet.title.map(JSONValue.string) ?? .null,
        ])
    }
}
