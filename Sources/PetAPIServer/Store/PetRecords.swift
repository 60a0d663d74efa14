/// A stored pet; ids are assigned by the store.
public struct PetRecord: Sendable, Hashable {
    /// The pet's id, as used in `/pets/{id}`.
    public var id: Int64
    /// The pet's fields.
    public var fields: PetFields

    /// Creates a record.
    public init(id: Int64, fields: PetFields) {
        self.id = id
        self.fields = fields
    }
}

/// What a client writes for a pet (`POST`/`PUT /pets`).
public struct PetFields: Sendable, Hashable {
    /// Required, non-empty.
    public var firstName: String
    /// Optional; null clears it.
    public var lastName: String?
    /// Required; must name an existing vet when written.
    public var vetId: Int64

    /// Creates pet fields.
    public init(firstName: String, lastName: String?, vetId: Int64) {
        self.firstName = firstName
        self.lastName = lastName
        self.vetId = vetId
    }
}

/// A stored vet; ids are assigned by the store.
public struct VetRecord: Sendable, Hashable {
    /// The vet's id, as used in `/vets/{id}`.
    public var id: Int64
    /// The vet's fields.
    public var fields: VetFields

    /// Creates a record.
    public init(id: Int64, fields: VetFields) {
        self.id = id
        self.fields = fields
    }
}

/// What a client writes for a vet (`POST`/`PUT /vets`).
public struct VetFields: Sendable, Hashable {
    /// Required, non-empty.
    public var firstName: String
    /// Required, non-empty.
    public var lastName: String
    /// Optional; null clears it.
    public var title: String?

    /// Creates vet fields.
    public init(firstName: String, lastName: String, title: String?) {
        self.firstName = firstName
        self.lastName = lastName
        self.title = title
    }
}

/// The data a new database starts with.
public struct PetAPISeed: Sendable, Hashable {
    /// Vets, inserted first, with their ids.
    public var vets: [VetRecord]
    /// Pets, with their ids.
    public var pets: [PetRecord]

    /// Creates a seed.
    public init(vets: [VetRecord], pets: [PetRecord]) {
        self.vets = vets
        self.pets = pets
    }

    /// The same four pets and three vets as the base stubs in `Stubs/`.
    public static let standard = PetAPISeed(
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
