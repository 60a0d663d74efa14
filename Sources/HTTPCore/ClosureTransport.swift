/// A transport whose answers come from a closure: the fake for unit tests.
///
/// ```swift
/// let transport = ClosureTransport { request in
///     HTTPClientResponse(status: .ok, headers: ["Content-Type": "application/json"], body: Array("[]".utf8))
/// }
/// ```
public struct ClosureTransport: HTTPTransport {
    private let handler: @Sendable (HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse

    /// Creates a transport that answers every request with the closure's result.
    public init(_ handler: @escaping @Sendable (HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse)
    {
        self.handler = handler
    }

    public func send(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse {
        try await handler(request)
    }
}
