import ContractModel

/// A pet as the Pet API returns it; every field optional so a drifted API decodes.
public struct PetJsonModel: Codable, Sendable, Hashable, ContractDecodable {
    /// The pet's first name.
    public let firstName: String?
    /// The pet's last name; rows show the first name alone when it is missing.
    public let lastName: String?
    /// The id of the pet's vet, fetched at `/vets/{id}`.
    public let vetId: Int?

    /// Creates a pet.
    public init(firstName: String?, lastName: String?, vetId: Int?) {
        self.firstName = firstName
        self.lastName = lastName
        self.vetId = vetId
    }

    /// A row cannot be built without the first name and the vet.
    public static let requiredKeys = ["firstName", "vetId"]
}
