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
    private let hold: NotFoundHold?
    private let clock: TimeSource

    /// Wraps a transport. With `holdingNotFound`, 404 answers are held back, not recorded,
    /// until some request gets another answer (then they are recorded too): a base URL
    /// where nothing is found (an origin without the API's path prefix) records nothing,
    /// and ``heldNotFound`` says so. Each exchange's duration is measured on `clock`.
    public init(
        wrapping inner: any HTTPTransport, recorder: Recorder, holdingNotFound: Bool = false,
        clock: TimeSource = .system
    ) {
        self.inner = inner
        self.clock = clock
        self.recorder = recorder
        hold = holdingNotFound ? NotFoundHold() : nil
    }

    /// The exchanges answered 404 and held back because no request has had another answer
    /// yet; empty once one has (or without `holdingNotFound`).
    public var heldNotFound: [RecordedExchange] {
        hold?.state.withLock { $0.found ? [] : $0.held } ?? []
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
        for admitted in hold?.admit(exchange) ?? [exchange] { recorder.record(admitted) }
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

/// The 404 answers held back until some request is answered otherwise.
private final class NotFoundHold: Sendable {
    let state = Locked<(found: Bool, held: [RecordedExchange])>((false, []))

    /// The exchanges to record now: none for a 404 while nothing has been found, else this
    /// one after those held back.
    func admit(_ exchange: RecordedExchange) -> [RecordedExchange] {
        state.withLock { state in
            if state.found { return [exchange] }
            guard let response = exchange.upstream.response else { return [exchange] }
            if response.status.code == 404 {
                state.held.append(exchange)
                return []
            }
            state.found = true
            defer { state.held = [] }
            return state.held + [exchange]
        }
    }
}
