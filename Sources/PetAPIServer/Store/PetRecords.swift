/// A stored pet; ids are assigned by the store.
package struct PetRecord: Sendable, Hashable {
    /// The pet's id, as used in `/pets/{id}`.
    package var id: Int64
    /// The pet's fields.
    package var fields: PetFields

    /// Creates a record.
    package init(id: Int64, fields: PetFields) {
        self.id = id
        self.fields = fields
    }
}

/// What a client writes for a pet (`POST`/`PUT /pets`).
package struct PetFields: Sendable, Hashable {
    /// Required, non-empty.
    package var firstName: String
    /// Optional; null clears it.
    package var lastName: String?
    /// Required; must name an existing vet when written.
    package var vetId: Int64

    /// Creates pet fields.
    package init(firstName: String, lastName: String?, vetId: Int64) {
        self.firstName = firstName
        self.lastName = lastName
        self.vetId = vetId
    }
}

/// A stored vet; ids are assigned by the store.
package struct VetRecord: Sendable, Hashable {
    /// The vet's id, as used in `/vets/{id}`.
    package var id: Int64
    /// The vet's fields.
    package var fields: VetFields

    /// Creates a record.
    package init(id: Int64, fields: VetFields) {
        self.id = id
        self.fields = fields
    }
}

/// What a client writes for a vet (`POST`/`PUT /vets`).
package struct VetFields: Sendable, Hashable {
    /// Required, non-empty.
    package var firstName: String
    /// Required, non-empty.
    package var lastName: String
    /// Optional; null clears it.
    package var title: String?

    /// Creates vet fields.
    package init(firstName: String, lastName: String, title: String?) {
        self.firstName = firstName
        self.lastName = lastName
        self.title = title
    }
}

/// The data a new database starts with.
package struct PetAPISeed: Sendable, Hashable {
    /// Vets, inserted first, with their ids.
    package var vets: [VetRecord]
    /// Pets, with their ids.
    package var pets: [PetRecord]

    /// Creates a seed.
    package init(vets: [VetRecord], pets: [PetRecord]) {
        self.vets = vets
        self.pets = pets
    }

    /// The same four pets and three vets as the base stubs in `Stubs/`.
    package static let standard = PetAPISeed(
        vets: [
            VetRecord(id: 1, fields: VetFields(firstName: "Ann", lastName: "Lee", title: "DVM")),
            VetRecord(id: 2, fields: VetFields(firstName: "Omar", lastName: "Haddad", title: "BVSc")),
            VetRecord(id: 3, fields: VetFields(firstName: "Grace", lastName: "Okafor", title: "DVM, PhD")),
        ],
        pets: [
            PetRecord(id: 1, fields: PetFields(firstName: "Rex", lastName: "Smith", vetId: 1)),
            PetRecord(id: 2, fields: PetFields(firstName: "Bella", lastName: "Jones", vetId: 2)),
            PetRecord(id: 3, fields: PetFields(firstName: "Milo", lastName: "Garcia", vetId: 1)),
            PetRecord(id: 4, fields: PetFields(firstName: "Luna", lastName: "Chen", vetId: 3)),
        ])
}
