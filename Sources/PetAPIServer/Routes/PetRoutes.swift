import HTTPCore
import HTTPServer
import JSONKit

/// `/api/pets` and `/api/pets/{id}`.
struct PetRoutes {
    let store: PetStore

    func respond(to request: HTTPServerRequest, id: Int64?) throws -> HTTPResponse {
        guard let id else {
            try PetAPIHandler.only([.get, .head, .post], request)
            if request.method == .post {
                let created = try store.createPet(try PetRoutes.fields(request))
                return PetAPIHandler.json(
                    PetRoutes.json(created.fields), status: .created, headers: ["Location": "/api/pets/\(created.id)"])
            }
            return PetAPIHandler.json(.array(try store.pets().map { PetRoutes.json($0.fields) }))
        }
        try PetAPIHandler.only([.get, .head, .put, .delete], request)
        switch request.method {
        case .put:
            guard let updated = try store.updatePet(id: id, try PetRoutes.fields(request)) else { throw missing(id) }
            return PetAPIHandler.json(PetRoutes.json(updated.fields))
        case .delete:
            guard try store.deletePet(id: id) else { throw missing(id) }
            return HTTPResponse(status: .noContent)
        default:
            guard let pet = try store.pet(id: id) else { throw missing(id) }
            return PetAPIHandler.json(PetRoutes.json(pet.fields))
        }
    }

    private func missing(_ id: Int64) -> PetAPIError { .notFound("No pet with id \(id)") }

    static func fields(_ request: HTTPServerRequest) throws(PetAPIError) -> PetFields {
        var body = try RequestBody(request.body, headers: request.headers)
        let fields = PetFields(
            firstName: try body.requiredString("firstName"), lastName: try body.optionalString("lastName"),
            vetId: try body.requiredInteger("vetId"))
        try body.rejectUnknownKeys()
        return fields
    }

    static func json(_ pet: PetFields) -> JSONValue {
        .object([
            "firstName": .string(pet.firstName), "lastName": pet.lastName.map(JSONValue.string) ?? .null,
            "vetId": .int(pet.vetId),
        ])
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
