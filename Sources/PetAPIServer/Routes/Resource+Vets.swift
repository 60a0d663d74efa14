import JSONKit

extension Resource where Fields == VetFields {
    /// Vets: `firstName` and `lastName` (required), `title` (optional).
    static func vets(in store: PetStore) -> Resource {
        Resource(
            name: "vet", collection: "vets",
            decode: { (body: inout JSONWriteBody) throws(PetAPIError) in
                VetFields(
                    firstName: try body.requiredString("firstName"), lastName: try body.requiredString("lastName"),
                    title: try body.optionalString("title"))
            },
            encode: { vet in
                .object([
                    "firstName": .string(vet.firstName), "lastName": .string(vet.lastName),
                    "title": vet.title.map(JSONValue.string) ?? .null,
                ])
            },
            list: { try store.vets().map { ($0.id, $0.fields) } },
            find: { try store.vet(id: $0)?.fields },
            create: { try store.createVet($0).id },
            update: { try store.updateVet(id: $0, $1) != nil },
            delete: { try store.deleteVet(id: $0) })
    }
}
