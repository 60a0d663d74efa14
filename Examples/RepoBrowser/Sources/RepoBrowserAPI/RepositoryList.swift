import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A user's repositories loaded the way many apps call their API: `URLSession.data(for:)` and
/// a `JSONDecoder`, with no petkit type in the way. Tests hand it a session whose answers come
/// from petmock's engine in process (URLSessionStubs' `StubSession`).
public struct RepositoryList: Sendable {
    /// Why a load failed.
    public enum LoadError: Error, Sendable {
        /// The API answered with a status outside 200–299.
        case status(Int)
        /// The body did not decode into the app's models: the decoder's own words.
        case decoding(String)
        /// No HTTP answer came: URLSession's error.
        case transport(URLError.Code)
    }

    private let baseURL: URL
    private let session: URLSession

    /// A loader of the API at `baseURL` (such as `https://api.example.com/api`) over `session`.
    public init(baseURL: URL, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.session = session
    }

    /// The user's repositories, most starred first.
    public func repositories(of login: String) async throws(LoadError) -> [Repository] {
        let url = baseURL.appendingPathComponent("users").appendingPathComponent(login).appendingPathComponent("repos")
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch let error as URLError {
            throw .transport(error.code)
        } catch {
            throw .transport(.unknown)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else { throw .status(status) }
        do {
            return try RepoBrowserAPI.makeDecoder().decode([Repository].self, from: data)
                .sorted { $0.stargazersCount > $1.stargazersCount }
        } catch {
            throw .decoding("\(error)")
        }
    }
}
