import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Declines every redirect, so the 3xx itself is the response, as with `CurlTransport`'s
/// default (callers see what the server said).
final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    static let shared = RedirectRefusal()

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
