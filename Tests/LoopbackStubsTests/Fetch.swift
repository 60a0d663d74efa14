import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a data task ended with: the response and body, or the error.
struct Fetched: Sendable {
    var data: Data?
    var response: HTTPURLResponse?
    var error: (any Error)?

    /// The body as UTF-8 text ("" when none).
    var text: String { data.map { String(decoding: $0, as: UTF8.self) } ?? "" }
    /// The status code (0 when none).
    var status: Int { response?.statusCode ?? 0 }
}

/// Runs a data task for `request` on `session` (an ephemeral one by default) to its end, as the
/// app under test would.
func fetch(_ request: URLRequest, session: URLSession = LoopbackClient.session) async -> Fetched {
    await withCheckedContinuation { continuation in
        session.dataTask(with: request) { data, response, error in
            continuation.resume(returning: Fetched(data: data, response: response as? HTTPURLResponse, error: error))
        }
        .resume()
    }
}

/// Runs a data task for `url` to its end.
func fetch(_ url: String) async throws -> Fetched {
    await fetch(URLRequest(url: try #require(URL(string: url))))
}

/// The app's side: one ephemeral session the tests share, as the app's networking layer would be.
/// Its requests wait as long as a slow machine needs (a sanitizer run with every suite at
/// once): a test's bound is its own expectation, not the session's 60 s default.
enum LoopbackClient {
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 600
        configuration.timeoutIntervalForResource = 600
        return URLSession(configuration: configuration)
    }()
}
