/// One table row: the pet's name and its vet's name and title, ready to show.
public struct PetVetCellViewModel: Codable, Sendable, Hashable {
    /// The pet's name: first and last, or the first alone when the last is missing.
    public let petName: String
    /// The vet as `First Last, Title`, or `First Last` when the title is missing or null.
    public let vetNameAndTitle: String

    /// Creates a row from finished text.
    public init(petName: String, vetNameAndTitle: String) {
        self.petName = petName
        self.vetNameAndTitle = vetNameAndTitle
    }

    /// A field a row cannot do without, and whose model lacked it.
    public enum MissingField: Error, Hashable, Sendable, CustomStringConvertible {
        /// The pet lacks this key (`firstName` or `vetId`).
        case pet(String)
        /// The vet lacks this key (`firstName` or `lastName`).
        case vet(String)

        public var description: String {
            switch self {
            case .pet(let key): "pet has no '\(key)'"
            case .vet(let key): "vet has no '\(key)'"
            }
        }
    }

    /// Builds a row, or names the first required field that is missing.
    ///
    /// The required fields are exactly the models' ``ContractDecodable/requiredKeys``; a test
    /// holds the two together.
    public static func make(pet: PetJsonModel, vet: VetJsonModel) -> Result<PetVetCellViewModel, MissingField> {
        guard let petFirst = pet.firstName else { return .failure(.pet("firstName")) }
        guard pet.vetId != nil else { return .failure(.pet("vetId")) }
        guard let vetFirst = vet.firstName else { return .failure(.vet("firstName")) }
        guard let vetLast = vet.lastName else { return .failure(.vet("lastName")) }
        let petName = [petFirst, pet.lastName].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        var vetText = "\(vetFirst) \(vetLast)"
        if let title = vet.title, !title.isEmpty {
            vetText += ", \(title)"
        }
        return .success(PetVetCellViewModel(petName: petName, vetNameAndTitle: vetText))
    }

    /// Builds a row, or returns nil when a required field is missing (the seeds' failable form).
    public init?(_ pet: PetJsonModel, _ vet: VetJsonModel?) {
        guard let vet, case .success(let row) = PetVetCellViewModel.make(pet: pet, vet: vet) else { return nil }
        self = row
    }
}
