import HTTPCore

/// The real ``HTTPTransport``: libcurl's multi interface driven by one I/O thread.
///
/// All requests of a transport share that thread and libcurl's connection cache, so
/// sequential requests to one host reuse a kept-alive connection, and concurrent ones run in
/// parallel (multiplexed over HTTP/2 where a TLS server offers it). Bodies arrive decoded from
/// gzip or deflate; redirects are not followed unless configured. Cancelling the Swift task
/// abandons the transfer and throws ``HTTPClientError/Kind/cancelled``.
///
/// ```swift
/// let transport = CurlTransport()
/// let response = try await transport.send(HTTPClientRequest(url: "http://127.0.0.1:8080/api/pets"))
/// print(response.status, response.body.count)
/// ```
public final class CurlTransport: HTTPTransport {
    /// The settings this transport was made with.
    public let configuration: CurlTransportConfiguration
    private let engine: CurlEngine?

    /// Creates a transport and starts its I/O thread.
    public init(configuration: CurlTransportConfiguration = CurlTransportConfiguration()) {
        self.configuration = configuration
        engine = CurlEngine(configuration: configuration)
    }

    deinit {
        engine?.shutDown()
    }

    /// Sends the request and waits for the whole response.
    ///
    /// Throws when no complete HTTP response arrived: connect failure, timeout, reset,
    /// malformed reply, a body over ``CurlTransportConfiguration/maxResponseSize``, or
    /// cancellation. An HTTP error status is a response, not a throw.
    public func send(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse {
        let logger = configuration.logger
        logger?.log(request: request, compressed: configuration.decompress)
        guard let engine else {
            let error = HTTPClientError(kind: .other, url: request.url, message: CurlGlobal.failure)
            logger?.log(error: error, for: request)
            throw error
        }
        let transfer = CurlTransfer(request: request, options: configuration)
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                engine.submit(transfer) { continuation.resume(returning: $0) }
            }
        } onCancel: {
            engine.cancel(transfer)
        }
        log(outcome, for: request)
        return try outcome.get()
    }

    /// Sends the request and calls `completion` once with the outcome, without a Swift task:
    /// on the transport's I/O thread, so `completion` must only hand the outcome on (to an
    /// event loop, a queue), never block. For servers that forward many requests (a proxy),
    /// where the hops of a task per request would cost more than the transfer.
    public func send(
        _ request: HTTPClientRequest,
        completion: @escaping @Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void
    ) {
        let logger = configuration.logger
        logger?.log(request: request, compressed: configuration.decompress)
        guard let engine else {
            let error = HTTPClientError(kind: .other, url: request.url, message: CurlGlobal.failure)
            logger?.log(error: error, for: request)
            completion(.failure(error))
            return
        }
        engine.submit(CurlTransfer(request: request, options: configuration)) { [self] outcome in
            log(outcome, for: request)
            completion(outcome)
        }
    }

    private func log(_ outcome: Result<HTTPClientResponse, HTTPClientError>, for request: HTTPClientRequest) {
        guard let logger = configuration.logger else { return }
        switch outcome {
        case .success(let response): logger.log(response: response, for: request)
        case .failure(let error): logger.log(error: error, for: request)
        }
    }
}
