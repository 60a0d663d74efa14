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

    /// `GET /pets`, each pet decoded on its own: one that does not decode is a failure in its
    /// place, and the others are kept (``PetService/petEntries()``).
    public struct PetEntries: Endpoint {
        public typealias Response = [Result<PetJsonModel, PetClientError>]

        /// Creates the endpoint.
        public init() {}

        public var path: String { "/pets" }
        public var decoding: ResponseDecoding<Response> { .jsonElements(PetJsonModel.self) }
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
