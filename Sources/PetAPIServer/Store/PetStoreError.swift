import SQLiteKit

/// Why a store operation failed.
package enum PetStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A pet write named a vet that does not exist.
    case unknownVet(Int64)
    /// The database itself failed.
    case database(SQLiteError)

    package var description: String {
        switch self {
        case .unknownVet(let id): "no vet with id \(id)"
        case .database(let error): error.description
        }
    }
}
