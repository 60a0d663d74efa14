import ContractModel
import Foundation

/// A repository as the API returns it. The JSON is snake_case (`full_name`,
/// `stargazers_count`); the app reads it through ``RepoBrowserAPI/makeDecoder()``'s
/// `convertFromSnakeCase`, so the Swift names are camelCase and no `CodingKeys` spell the JSON.
public struct Repository: Decodable, Sendable, Hashable, ContractDecodable {
    /// The repository's id.
    public let id: Int
    /// `owner/name`.
    public let fullName: String
    /// Who owns it.
    public let owner: Owner
    /// The description, when it has one.
    public let description: String?
    /// Stars.
    public let stargazersCount: Int
    /// When it was created (ISO 8601).
    public let createdAt: Date
    /// Topics, when the API sends them.
    public let topics: [String]?
    /// Who can see it.
    public let visibility: Visibility?

    /// The browser cannot show a repository without its name, owner and star count.
    public static let requiredKeys = ["fullName", "owner", "stargazersCount"]
}

/// A repository's owner.
public struct Owner: Decodable, Sendable, Hashable, ContractDecodable {
    /// The login, used in URLs.
    public let login: String
    /// The owner's id.
    public let id: Int
    /// The avatar's URL, when there is one.
    public let avatarUrl: URL?

    /// Rows show the login.
    public static let requiredKeys = ["login"]
}

/// Who can see a repository. Not `CaseIterable` on purpose: the contract then says `string`
/// without listing values (a new visibility is not drift for this app).
public enum Visibility: String, Decodable, Sendable, Hashable {
    case `public`
    case `private`
    case `internal`
}

/// The API's error body, `{"message": "...", "documentation_url": "..."}`.
public struct APIError: Decodable, Sendable, Hashable, ContractDecodable {
    /// What went wrong.
    public let message: String?
    /// Where to read more.
    public let documentationUrl: String?

    public static let requiredKeys: [String] = []
}
