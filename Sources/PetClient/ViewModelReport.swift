import EndpointKit
import PetModels

/// What ``ViewModelBuilder`` made: the rows to show, in pet order, and every pet it could
/// not show with the reason.
public struct ViewModelReport: Sendable {
    /// The table rows, in the order the pets came.
    public var rows: [PetVetCellViewModel]
    /// The pets left out, in pet order.
    public var dropped: [DroppedPet]
    /// How many pets the service returned.
    public var petCount: Int

    /// Creates a report.
    public init(rows: [PetVetCellViewModel], dropped: [DroppedPet], petCount: Int) {
        self.rows = rows
        self.dropped = dropped
        self.petCount = petCount
    }
}

/// A pet that got no row, and why.
public struct DroppedPet: Sendable, CustomStringConvertible {
    /// Why a pet got no row.
    public enum Reason: Sendable, CustomStringConvertible {
        /// The pet, or its vet, lacks a field a row needs; `vetId` names the vet for a vet field.
        case missingField(PetVetCellViewModel.MissingField, vetId: Int?)
        /// The pet's vet could not be fetched.
        case vetUnavailable(vetId: Int, EndpointError)
        /// The pet itself did not decode (a value of another type, say); the error says where.
        case undecodable(EndpointError)

        public var description: String {
            switch self {
            case .missingField(.pet(let key), _): "pet has no '\(key)'"
            case .missingField(.vet(let key), let vetId?): "vet \(vetId) has no '\(key)'"
            case .missingField(.vet(let key), nil): "vet has no '\(key)'"
            case .vetUnavailable(let vetId, let error): "vet \(vetId) could not be fetched: \(error)"
            case .undecodable(let error): "\(error)"
            }
        }
    }

    /// The pet's position in the service's list, from 0 (as in the JSON path `$[2]`).
    public let index: Int
    /// The pet as decoded; nil when it did not decode.
    public let pet: PetJsonModel?
    /// Why it was left out.
    public let reason: Reason

    /// Creates a dropped-pet diagnostic.
    public init(index: Int, pet: PetJsonModel?, reason: Reason) {
        self.index = index
        self.pet = pet
        self.reason = reason
    }

    public var description: String {
        let name = pet?.firstName.map { " '\($0)'" } ?? ""
        return "pet \(index)\(name): \(reason)"
    }
}
