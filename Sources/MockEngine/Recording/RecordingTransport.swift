import HTTPCore
import Platform

/// An ``HTTPTransport`` that records what passes through it: every request sent with it, and
/// its response (or failure), becomes a mapping in the recorder. `petmock record --crawl`
/// puts one under the contract verifier; an app's tests can put one under their client.
///
/// ```swift
/// let transport = RecordingTransport(wrapping: URLSessionTransport(), recorder: recorder)
/// let client = EndpointClient(baseURL: "http://127.0.0.1:8081/api", transport: transport)
/// ```
public struct RecordingTransport: HTTPTransport {
    private let inner: any HTTPTransport
    /// The recorder the exchanges go to.
    public let recorder: Recorder
    private let clock: TimeSource

    /// Wraps a transport. Each exchange's duration is measured on `clock`; the recorder's
    /// configuration says what is kept (``RecordingConfiguration/holdsNotFound`` holds 404s
    /// back while nothing else has been found).
    public init(wrapping inner: any HTTPTransport, recorder: Recorder, clock: TimeSource = .system) {
        self.inner = inner
        self.clock = clock
        self.recorder = recorder
    }

    /// Sends the request with the wrapped transport and records the exchange, the mapping
    /// matching the URL's path and query (`/api/pets?limit=2`).
    public func send(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse {
        let start = clock.monotonicNanoseconds
        let outcome: Result<HTTPClientResponse, HTTPClientError>
        do {
            outcome = .success(try await inner.send(request))
        } catch {
            outcome = .failure(error)
        }
        let upstream = UpstreamResult(url: request.url, outcome: outcome, duration: clock.elapsed(since: start))
        let exchange = RecordedExchange(
            method: request.method, url: Self.originForm(of: request.url), headers: request.headers,
            body: request.body ?? [], upstream: upstream)
        recorder.record(exchange)
        return try outcome.get()
    }

    /// The path and query of an absolute URL (`/` when it has no path); the fragment dropped.
    static func originForm(of url: String) -> String {
        var rest = Substring(url)
        if let fragment = rest.firstIndex(of: "#") { rest = rest[..<fragment] }
        if let colon = rest.firstIndex(of: ":"), rest[colon...].hasPrefix("://") {
            rest = rest[rest.index(colon, offsetBy: 3)...]
        }
        guard let start = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
        let origin = rest[start...]
        return origin.first == "?" ? "/" + origin : String(origin)
    }
}
