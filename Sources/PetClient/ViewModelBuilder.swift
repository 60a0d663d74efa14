import EndpointKit
import PetModels

/// Builds the pet/vet table rows from a ``PetService``: the pets once, then each distinct
/// vet once, a bounded number at a time.
///
/// Unlike the seeds' `DispatchGroup` version (one vet request per pet, rows appended from
/// many threads in arrival order), rows keep the pets' order, a vet that fails loses only its
/// own pets' rows, a pet the model cannot decode loses only its own row, and every pet not
/// shown comes back with the reason.
///
/// ```swift
/// let builder = ViewModelBuilder(service: RESTPetService(baseURL: "http://127.0.0.1:8080/api"))
/// let report = try await builder.build()
/// for row in report.rows { print(row.petName, row.vetNameAndTitle) }
/// for pet in report.dropped { print(pet) }   // pet 3 'Tom': vet 7 has no 'lastName'
/// ```
public struct ViewModelBuilder: Sendable {
    /// Where the pets and vets come from.
    public let service: any PetService
    /// The most vet requests in flight at once.
    public let maxConcurrentVetRequests: Int

    /// Creates a builder; `maxConcurrentVetRequests` is raised to at least 1.
    public init(service: any PetService, maxConcurrentVetRequests: Int = 8) {
        self.service = service
        self.maxConcurrentVetRequests = max(1, maxConcurrentVetRequests)
    }

    /// Fetches and builds the rows.
    ///
    /// Throws only when the pet list itself cannot be had, or the task is cancelled; any
    /// other problem drops the pets it affects and is reported in ``ViewModelReport/dropped``.
    public func build() async throws(EndpointError) -> ViewModelReport {
        let entries = try await service.petEntries()
        // A pet that did not decode, or has no first name, is dropped whatever its vet says,
        // so its vet is not fetched for it; each other vet id is fetched once, in order of
        // first appearance.
        var vetIds: [Int] = []
        var seen = Set<Int>()
        for case .success(let pet) in entries where pet.firstName != nil {
            if let id = pet.vetId, seen.insert(id).inserted { vetIds.append(id) }
        }
        let vets = await fetchVets(vetIds)
        if Task.isCancelled { throw .cancelled }
        var report = ViewModelReport(rows: [], dropped: [], petCount: entries.count)
        for (index, entry) in entries.enumerated() {
            let pet: PetJsonModel
            switch entry {
            case .success(let decoded): pet = decoded
            case .failure(let error):
                report.dropped.append(DroppedPet(index: index, pet: nil, reason: .undecodable(error)))
                continue
            }
            guard pet.firstName != nil, let vetId = pet.vetId else {
                let key = pet.firstName == nil ? "firstName" : "vetId"
                report.dropped.append(DroppedPet(index: index, pet: pet, reason: .missingField(.pet(key), vetId: nil)))
                continue
            }
            switch vets[vetId] {
            case .success(let vet):
                switch PetVetCellViewModel.make(pet: pet, vet: vet) {
                case .success(let row): report.rows.append(row)
                case .failure(let missing):
                    report.dropped.append(
                        DroppedPet(index: index, pet: pet, reason: .missingField(missing, vetId: vetId)))
                }
            case .failure(let error):
                report.dropped.append(DroppedPet(index: index, pet: pet, reason: .vetUnavailable(vetId: vetId, error)))
            case nil:
                report.dropped.append(
                    DroppedPet(index: index, pet: pet, reason: .vetUnavailable(vetId: vetId, .cancelled)))
            }
        }
        return report
    }

    private func fetchVets(_ ids: [Int]) async -> [Int: Result<VetJsonModel, EndpointError>] {
        let service = self.service
        let bound = maxConcurrentVetRequests
        return await withTaskGroup(of: (Int, Result<VetJsonModel, EndpointError>).self) { group in
            var waiting = ids[...]
            var running = 0
            var vets: [Int: Result<VetJsonModel, EndpointError>] = [:]
            while true {
                // Keep `bound` requests in flight: top up, then take whichever finishes first.
                while running < bound, let id = waiting.popFirst() {
                    let added = group.addTaskUnlessCancelled { (id, await Self.fetchVet(id, from: service)) }
                    guard added else {
                        waiting = []
                        break
                    }
                    running += 1
                }
                guard let (id, result) = await group.next() else { break }
                running -= 1
                vets[id] = result
            }
            return vets
        }
    }

    // A function, and `try await` on a line of its own: Swift 6.3.1's optimiser miscompiles
    // `do throws(E) { return (id, .success(try await ...)) } catch { ... }` written inline in
    // the child-task closure (the returned ids come back as garbage in -O builds only).
    private static func fetchVet(_ id: Int, from service: any PetService) async -> Result<VetJsonModel, EndpointError> {
        do {
            let vet = try await service.vet(id: id)
            return .success(vet)
        } catch {
            return .failure(error)
        }
    }

    /// Builds the rows and calls `completion` with them (empty when the pets cannot be had):
    /// the seeds' signature, for code being ported. The completion runs on an arbitrary thread.
    public static func petVetTableCellViewModels(
        petService: any PetService, completion: @escaping @Sendable ([PetVetCellViewModel]) -> Void
    ) {
        Task {
            let report = try? await ViewModelBuilder(service: petService).build()
            completion(report?.rows ?? [])
        }
    }
}
