// The endpoint as step 3 of "Your own app" declares it, before the extension that adopts
// Endpoint (RepoBrowserAPI's own RepositoryDetail already does).
import ContractModel
import EndpointKit
import RepoBrowserAPI

typealias UserRepositories = RepoBrowserAPI.UserRepositories

struct RepositoryDetail: ContractEndpoint, Sendable {
    typealias Response = Repository
    static let operation = EndpointOperation(
        .get, "/repositories/{id}", operationId: "getRepository",
        parameters: [.path("id", Int.self, valuesFrom: UserRepositories.self, at: "$[*].id")],
        errors: [.status(404, "No such repository", body: APIError.self)])
    let id: Int
}
