import Foundation
import HTTPCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An ``HTTPTransport`` over a `URLSession`: what an app on Apple's platforms sends with, and
/// what its tests can link (no libcurl of petkit's).
///
/// It answers as HTTPClient's `CurlTransport` does: redirects are not followed (the 3xx is the
/// response), an HTTP error status is a response, and a request that gets no response throws
/// an ``HTTPClientError`` of the same kind libcurl's failure would (refused, timed out, reset,
/// cancelled, too large). The request's ``HTTPClientRequest/timeout``, or else this transport's
/// ``timeout``, bounds the whole exchange. Cancelling the Swift task cancels the
/// `URLSessionTask` and throws ``HTTPClientError/Kind/cancelled``.
///
/// `URLSession` keeps header fields in a dictionary both ways, so the fields are sent in an
/// order of its choosing, and a response's fields come back sorted by name (repeated fields
/// joined with `, `); bodies arrive decoded from gzip or deflate.
///
/// ```swift
/// let client = EndpointClient(baseURL: "http://127.0.0.1:8080/api", transport: URLSessionTransport())
/// let items = try await client.send(ItemsEndpoint())
/// ```
public final class URLSessionTransport: HTTPTransport {
    /// The session requests go through.
    public let session: URLSession
    /// How long a request may take when it sets no ``HTTPClientRequest/timeout``; nil leaves
    /// it to the session's configuration.
    public let timeout: Duration?
    /// The largest body accepted; a larger one fails with ``HTTPClientError/Kind/tooLarge``.
    public let maxResponseSize: Int

    /// Creates a transport over `session`.
    public init(session: URLSession = .shared, timeout: Duration? = nil, maxResponseSize: Int = 64 << 20) {
        self.session = session
        self.timeout = timeout
        self.maxResponseSize = maxResponseSize
    }

    /// Sends the request and waits for the whole response.
    ///
    /// Throws when no complete HTTP response arrived: a URL that cannot be sent, a failed
    /// connection, a timeout, a reset, a body over ``maxResponseSize``, or cancellation.
    public func send(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse {
        let timeout = request.timeout ?? self.timeout
        let urlRequest = try Self.urlRequest(for: request, timeout: timeout)
        guard !Task.isCancelled else {
            throw HTTPClientError(kind: .cancelled, url: request.url, message: "the task was cancelled")
        }
        let transfer = URLSessionTransfer()
        let started = ContinuousClock.now
        let completion = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<URLSessionTransfer.Completion, Never>) in
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    continuation.resume(returning: URLSessionTransfer.Completion(data, response, error))
                }
                transfer.start(task, timeout: timeout)
            }
        } onCancel: {
            transfer.stop(.cancelled)
        }
        let stopReason = transfer.finish()
        return try response(
            to: request, completion, stoppedBecause: stopReason, after: ContinuousClock.now - started)
    }

    private func response(
        to request: HTTPClientRequest, _ completion: URLSessionTransfer.Completion,
        stoppedBecause stopReason: HTTPClientError.Kind?, after elapsed: Duration
    ) throws(HTTPClientError) -> HTTPClientResponse {
        if let error = completion.error {
            throw HTTPClientError(urlSessionError: error, url: request.url, stoppedBecause: stopReason)
        }
        guard let http = completion.response as? HTTPURLResponse else {
            throw HTTPClientError(kind: .malformedResponse, url: request.url, message: "the response is not HTTP")
        }
        let body = completion.data.map { [UInt8]($0) } ?? []
        guard body.count <= maxResponseSize else {
            throw HTTPClientError(
                kind: .tooLarge, url: request.url,
                message: "the response body of \(body.count) bytes is over the limit of \(maxResponseSize)")
        }
        let headers = Self.headers(of: http)
        return HTTPClientResponse(
            status: HTTPStatus(code: http.statusCode), headers: headers, body: body,
            contentEncoding: headers["Content-Encoding"]?.lowercased(), url: request.url,
            timings: HTTPTimings(total: elapsed))
    }

    /// The `URLRequest` for a request, or ``HTTPClientError/Kind/invalidURL`` for a URL
    /// Foundation cannot parse or that is not `http` or `https`.
    static func urlRequest(for request: HTTPClientRequest, timeout: Duration?) throws(HTTPClientError) -> URLRequest {
        guard let url = URL(string: request.url), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host != nil
        else {
            throw HTTPClientError(
                kind: .invalidURL, url: request.url, message: "'\(request.url)' is not an http or https URL")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        for field in request.headers {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        if let body = request.body { urlRequest.httpBody = Data(body) }
        if let timeout {
            // URLSession's interval is an idle timeout; the transfer's deadline bounds the total.
            urlRequest.timeoutInterval = max(0.001, timeout.seconds)
        }
        return urlRequest
    }

    /// The response's fields, sorted by name: `URLSession` does not keep their order.
    static func headers(of response: HTTPURLResponse) -> HTTPHeaders {
        var pairs: [(String, String)] = []
        for (name, value) in response.allHeaderFields {
            guard let name = name as? String else { continue }
            pairs.append((name, value as? String ?? "\(value)"))
        }
        pairs.sort { $0.0.lowercased() < $1.0.lowercased() }
        return HTTPHeaders(pairs)
    }
}

extension Duration {
    /// The duration in seconds, as Foundation's intervals count.
    fileprivate var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
