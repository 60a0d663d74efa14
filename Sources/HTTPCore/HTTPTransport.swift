/// Something that sends an ``HTTPClientRequest`` and returns the whole response.
///
/// HTTPClient's `CurlTransport` (libcurl) and EndpointKit's `URLSessionTransport` are the real
/// ones; ``ClosureTransport`` is the test double.
public protocol HTTPTransport: Sendable {
    /// Sends the request and waits for the complete response. Throws when no HTTP response
    /// arrived; an HTTP error status is a response, not a throw.
    func send(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse

    /// Sends the request and calls `completion` once with the outcome, on a thread of the
    /// transport's choosing. The default runs ``send(_:)`` in a task; `CurlTransport` calls
    /// back from its I/O thread without one.
    func send(
        _ request: HTTPClientRequest,
        completion: @escaping @Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void)
}

extension HTTPTransport {
    public func send(
        _ request: HTTPClientRequest,
        completion: @escaping @Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void
    ) {
        Task {
            do throws(HTTPClientError) {
                completion(.success(try await send(request)))
            } catch {
                completion(.failure(error))
            }
        }
    }
}
