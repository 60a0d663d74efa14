import JSONKit

extension Resource where Fields == PetFields {
    /// Pets: `firstName` (required), `lastName` (optional), `vetId` (an existing vet).
    static func pets(in store: PetStore) -> Resource {
        Resource(
            name: "pet", collection: "pets",
            decode: { (body: inout JSONWriteBody) throws(PetAPIError) in
                PetFields(
                    firstName: try body.requiredString("firstName"), lastName: try body.optionalString("lastName"),
                    vetId: try body.requiredInteger("vetId"))
            },
            encode: { pet in
                .object([
                    "firstName": .string(pet.firstName), "lastName": pet.lastName.map(JSONValue.string) ?? .null,
                    "vetId": .int(pet.vetId),
                ])
            },
            list: { try store.pets().map { ($0.id, $0.fields) } },
            find: { try store.pet(id: $0)?.fields },
            create: { try store.createPet($0).id },
            update: { try store.updatePet(id: $0, $1) != nil },
            delete: { try store.deletePet(id: $0) })
    }
}
