import EndpointKit
import HTTPClient
import HTTPCore
import Testing

/// The two real transports, each made fresh for a test.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case curl
    case urlSession

    /// A transport of this kind whose own timeouts are long enough never to decide a test:
    /// a test that wants a timeout sets the request's.
    func make() -> any HTTPTransport {
        switch self {
        case .curl: CurlTransport(configuration: .init(connectTimeout: .seconds(10), totalTimeout: .seconds(30)))
        case .urlSession: URLSessionTransport(timeout: .seconds(30))
        }
    }

    var testDescription: String { rawValue }
}
