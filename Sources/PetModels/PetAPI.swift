import ContractModel
import EndpointCore

/// The Pet API's operations as ``Endpoint``s, each declaring its operation for the app's
/// contract (``ContractEndpoint``): the contract is exactly ``endpoints``.
public enum PetAPI {
    /// What the app calls, in order: every pet, then each pet's vet. `petcontract` generates
    /// the app's contract from this list.
    public static let endpoints: [any ContractEndpoint.Type] = [Pets.self, Vet.self]

    /// `GET /pets`: every pet.
    public struct Pets: Endpoint, ContractEndpoint {
        public typealias Response = [PetJsonModel]

        public static let operation = EndpointOperation(
            .get, "/pets", operationId: "listPets", summary: "List every pet", description: "The pets",
            examples: [#"[{"firstName": "Rex", "lastName": "Smith", "vetId": 1}]"#])

        /// Creates the endpoint.
        public init() {}

        public var path: String { Self.operation.path([:]) }
    }

    /// `GET /pets`, each pet decoded on its own: one that does not decode is a failure in its
    /// place, and the others are kept (``PetService/petEntries()``). The same operation as
    /// ``Pets``, whose declaration it shares.
    public struct PetEntries: Endpoint {
        public typealias Response = [Result<PetJsonModel, EndpointError>]

        /// Creates the endpoint.
        public init() {}

        public var path: String { Pets.operation.path([:]) }
        public var decoding: ResponseDecoding<Response> { .jsonElements(PetJsonModel.self) }
    }

    /// `GET /vets/{id}`: one vet.
    public struct Vet: Endpoint, ContractEndpoint {
        public typealias Response = VetJsonModel

        public static let operation = EndpointOperation(
            .get, "/vets/{id}", operationId: "getVet", summary: "One vet, as each pet's vetId names it",
            parameters: [.path("id", Int.self, valuesFrom: Pets.self, at: "$[*].vetId", examples: ["1"])],
            description: "The vet", examples: [#"{"firstName": "Ann", "lastName": "Lee", "title": "DVM"}"#],
            errors: [
                .status(
                    404, "No vet with that id", body: APIErrorMessage.self,
                    examples: [#"{"code": 404, "message": "No vet with that id"}"#])
            ])

        /// The vet's id, as a pet's `vetId` gives it.
        public let id: Int

        /// Creates the endpoint for one vet.
        public init(id: Int) {
            self.id = id
        }

        public var path: String { Self.operation.path(["id": String(id)]) }
    }
}
