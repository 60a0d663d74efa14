import EndpointKit
import HTTPClient
import HTTPCore
import Testing

/// The two real transports, each made fresh for a test.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case curl
    case urlSession

    /// A transport of this kind: by default, its timeout is long enough never to decide a
    /// test (a test that wants a timeout sets the request's, or passes its own here).
    func make(timeout: Duration = .seconds(30), maxResponseSize: Int = 64 << 20) -> any HTTPTransport {
        switch self {
        case .curl:
            CurlTransport(
                configuration: .init(
                    connectTimeout: .seconds(10), totalTimeout: timeout, maxResponseSize: maxResponseSize))
        case .urlSession:
            URLSessionTransport(timeout: timeout, maxResponseSize: maxResponseSize)
        }
    }

    var testDescription: String { rawValue }
}
