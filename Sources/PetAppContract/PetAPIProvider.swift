import APISchema
import ContractKit
import EndpointCore
import JSONKit
import PetModels

/// The provider's side: every read operation the Pet API (petapi) serves, whether the app
/// calls it or not, for tests of the API itself. The app's guard is ``PetApp/contract``.
///
/// `GET /pets` → `[PetJsonModel]`, `GET /pets/{id}` → `PetJsonModel`, `GET /vets` →
/// `[VetJsonModel]`, `GET /vets/{id}` → `VetJsonModel`; the `{id}` operations document a 404
/// with an ``APIErrorMessage`` body. Every `vetId` seen in `GET /pets` is a value for
/// `GET /vets/{id}`.
public enum PetAPIProvider {
    /// The contract and the registry of the models its bodies decode to.
    public static func make() throws(ContractError) -> (contract: Contract, models: ModelRegistry) {
        var builder = ContractBuilder(
            title: "Pet API", version: "1.0.0",
            description: "Every read operation of the Pet API, as the app's Codable models read them.")
        let notFound = { (what: String) in
            ContractBuilder.ErrorResponse(
                status: 404, description: "No \(what) with that id", body: APIErrorMessage.self,
                examples: [["code": 404, "message": .string("No \(what) with that id")]])
        }
        let pet: JSONValue = ["firstName": "Rex", "lastName": "Smith", "vetId": 1]
        let vet: JSONValue = ["firstName": "Ann", "lastName": "Lee", "title": "DVM"]
        try builder.add(
            .get, "/pets", operationId: "listPets", summary: "List every pet", returns: [PetJsonModel].self,
            description: "The pets", examples: [[pet]])
        try builder.add(
            .get, "/pets/{id}", operationId: "getPet", summary: "One pet",
            parameters: [idParameter(examples: [1], sources: [])], returns: PetJsonModel.self,
            description: "The pet", examples: [pet], errors: [notFound("pet")])
        try builder.add(
            .get, "/vets", operationId: "listVets", summary: "List every vet", returns: [VetJsonModel].self,
            description: "The vets", examples: [[vet]])
        try builder.add(
            .get, "/vets/{id}", operationId: "getVet", summary: "One vet, as each pet's vetId names it",
            parameters: [
                idParameter(examples: [1], sources: [ParameterSource(operation: "GET /pets", path: "$[*].vetId")])
            ],
            returns: VetJsonModel.self, description: "The vet", examples: [vet], errors: [notFound("vet")])
        return (builder.contract, builder.models)
    }

    private static func idParameter(examples: [JSONValue], sources: [ParameterSource]) -> ContractParameter {
        ContractParameter(
            name: "id", location: .path, required: true, schema: Schema(types: [.integer], format: "int64"),
            examples: examples, sources: sources, description: "The id")
    }
}
