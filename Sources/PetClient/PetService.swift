import EndpointKit
import PetModels

/// Where the app gets pets and vets, whatever the source (the seeds' `PetService`).
///
/// Class-bound, as in the seeds, so a view controller can hold it weakly. The async methods
/// are the interface; the completion-handler forms below are for code ported from the seeds.
public protocol PetService: AnyObject, Sendable {
    /// Every pet.
    func pets() async throws(EndpointError) -> [PetJsonModel]
    /// Every pet, each decoded on its own: a pet the model cannot decode is a failure in its
    /// place (with the coding path, `[2].vetId`), and the others are kept. Throws only when
    /// the list itself cannot be had. The default wraps ``pets()``, all or nothing.
    func petEntries() async throws(EndpointError) -> [Result<PetJsonModel, EndpointError>]
    /// The vet with this id.
    func vet(id: Int) async throws(EndpointError) -> VetJsonModel
}

extension PetService {
    public func petEntries() async throws(EndpointError) -> [Result<PetJsonModel, EndpointError>] {
        try await pets().map { .success($0) }
    }

    /// Fetches the pets and calls `completion` with them, or with nil on failure (the seeds'
    /// signature). The completion runs on an arbitrary thread.
    public func pets(completion: @escaping @Sendable ([PetJsonModel]?) -> Void) {
        Task {
            let pets = try? await self.pets()
            completion(pets)
        }
    }

    /// Fetches a vet and calls `completion` with it, or with nil on failure (the seeds'
    /// signature). The completion runs on an arbitrary thread.
    public func vet(id: Int, completion: @escaping @Sendable (VetJsonModel?) -> Void) {
        Task {
            let vet = try? await self.vet(id: id)
            completion(vet)
        }
    }
}
