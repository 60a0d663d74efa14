import PetModels

/// The Pet API's operations as ``Endpoint``s.
public enum PetAPI {
    /// `GET /pets`: every pet.
    public struct Pets: Endpoint {
        public typealias Response = [PetJsonModel]

        /// Creates the endpoint.
        public init() {}

        public var path: String { "/pets" }
    }

    /// `GET /vets/{id}`: one vet.
    public struct Vet: Endpoint {
        public typealias Response = VetJsonModel

        /// The vet's id, as a pet's `vetId` gives it.
        public let id: Int

        /// Creates the endpoint for one vet.
        public init(id: Int) {
            self.id = id
        }

        public var path: String { "/vets/\(id)" }
    }
}
