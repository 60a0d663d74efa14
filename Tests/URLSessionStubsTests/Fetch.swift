import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a data task ended with: the response and body, or the error.
struct Fetched: Sendable {
    var data: Data?
    var response: HTTPURLResponse?
    var error: URLError?

    /// The body as UTF-8 text ("" when none).
    var text: String { data.map { String(decoding: $0, as: UTF8.self) } ?? "" }
    /// The status code (0 when none).
    var status: Int { response?.statusCode ?? 0 }
}

/// Runs a data task for `request` to its end.
func fetch(_ session: URLSession, _ request: URLRequest) async -> Fetched {
    await withCheckedContinuation { continuation in
        session.dataTask(with: request) { data, response, error in
            continuation.resume(
                returning: Fetched(
                    data: data, response: response as? HTTPURLResponse, error: error.map(urlError)))
        }
        .resume()
    }
}

/// Runs a data task for `url` to its end.
func fetch(_ session: URLSession, _ url: String) async throws -> Fetched {
    await fetch(session, URLRequest(url: try #require(URL(string: url))))
}

/// `error` as a URLError: the NSURLErrorDomain error URLSession gives, or `.unknown` for any other.
func urlError(_ error: any Error) -> URLError {
    if let error = error as? URLError { return error }
    let bridged = error as NSError
    guard bridged.domain == NSURLErrorDomain else { return URLError(.unknown, userInfo: ["error": "\(error)"]) }
    return URLError(URLError.Code(rawValue: bridged.code) ?? .unknown, userInfo: bridged.userInfo)
}
