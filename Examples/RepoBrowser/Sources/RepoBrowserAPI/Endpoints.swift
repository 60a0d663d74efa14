import ContractModel
import Foundation

/// The repositories browser's API: what it calls, declared for the contract with
/// `ContractModel` alone (no dependencies, no petkit client). The app's own URLSession code
/// (`RepositoryList`) calls these operations as it likes; `RepoBrowser.swift` also adopts
/// EndpointKit's `Endpoint` for them, which a team may do or not.
public enum RepoBrowserAPI {
    /// The endpoints the app calls, in order: a user's repositories, then each one's detail.
    public static let endpoints: [any ContractEndpoint.Type] = [UserRepositories.self, RepositoryDetail.self]

    /// The decoder the app reads every response with.
    @Sendable public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// `GET /users/{login}/repos`: a user's repositories.
    public struct UserRepositories: ContractEndpoint, Sendable {
        public typealias Response = [Repository]

        public static let operation = EndpointOperation(
            .get, "/users/{login}/repos", operationId: "listUserRepos", summary: "A user's repositories",
            parameters: [.path("login", String.self, examples: ["octocat"])],
            errors: [.status(404, "No such user", body: APIError.self)])

        /// The user.
        public let login: String

        /// The endpoint for one user.
        public init(login: String) {
            self.login = login
        }
    }

    /// `GET /repositories/{id}`: one repository, by the id the list gives it.
    public struct RepositoryDetail: ContractEndpoint, Sendable {
        public typealias Response = Repository

        public static let operation = EndpointOperation(
            .get, "/repositories/{id}", operationId: "getRepository", summary: "One repository",
            parameters: [.path("id", Int.self, valuesFrom: UserRepositories.self, at: "$[*].id")],
            errors: [.status(404, "No such repository", body: APIError.self)])

        /// The repository's id.
        public let id: Int

        /// The endpoint for one repository.
        public init(id: Int) {
            self.id = id
        }
    }
}
