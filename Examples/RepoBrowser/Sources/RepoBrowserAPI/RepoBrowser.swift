import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the browser shows: a user's repositories, most starred first, with the topics that
/// came with each one's detail, loaded through EndpointKit's client.
public struct RepoBrowser: Sendable {
    /// One row.
    public struct Row: Sendable, Hashable {
        /// `owner/name`.
        public var name: String
        /// Stars.
        public var stars: Int
        /// Topics, or none.
        public var topics: [String]
    }

    private let client: EndpointClient

    /// A browser of the API at `baseURL`, over URLSession unless another transport is given.
    public init(baseURL: String, transport: any HTTPTransport = URLSessionTransport()) {
        client = EndpointClient(baseURL: baseURL, transport: transport)
    }

    /// A browser of the API at `baseURL` over `session` (the app's own, or a test's stubs).
    public init(baseURL: String, session: URLSession) {
        self.init(baseURL: baseURL, transport: URLSessionTransport(session: session))
    }

    /// The rows for a user: the list, then each repository's detail.
    public func rows(for login: String) async throws(EndpointError) -> [Row] {
        var rows: [Row] = []
        for repository in try await client.send(RepoBrowserAPI.UserRepositories(login: login)) {
            let detail = try await client.send(RepoBrowserAPI.RepositoryDetail(id: repository.id))
            rows.append(Row(name: detail.fullName, stars: detail.stargazersCount, topics: detail.topics ?? []))
        }
        return rows.sorted { $0.stars > $1.stars }
    }
}

// The contract's declarations, adopted as EndpointKit endpoints for `EndpointClient`.
extension RepoBrowserAPI.UserRepositories: Endpoint {
    public var path: String { Self.operation.path(["login": login]) }
    public var decoding: ResponseDecoding<Response> { .json(decoder: RepoBrowserAPI.makeDecoder) }
}

extension RepoBrowserAPI.RepositoryDetail: Endpoint {
    public var path: String { Self.operation.path(["id": String(id)]) }
    public var decoding: ResponseDecoding<Response> { .json(decoder: RepoBrowserAPI.makeDecoder) }
}
