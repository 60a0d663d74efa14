import ContractModel

/// A veterinarian as the Pet API returns it; every field optional so a drifted API decodes.
public struct VetJsonModel: Codable, Sendable, Hashable, ContractDecodable {
    /// The vet's first name.
    public let firstName: String?
    /// The vet's last name.
    public let lastName: String?
    /// The vet's title, such as `DVM`; rows leave it out when missing or null.
    public let title: String?

    /// Creates a vet.
    public init(firstName: String?, lastName: String?, title: String?) {
        self.firstName = firstName
        self.lastName = lastName
        self.title = title
    }

    /// A row cannot name the vet without both names.
    public static let requiredKeys = ["firstName", "lastName"]
}
