import Foundation
import HTTPHandlerKit
import Platform

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A URLSession whose requests are answered in process by an `HTTPHandler`: no socket, no
/// port, no thread of its own. Each host has its own handler and session; hosts never answer
/// each other's requests, so tests using them run in parallel.
///
/// ```swift
/// @Test func loadsPets() async throws {
///     let host = StubURLSessionHost(handler: HTTPClosureHandler { _ in
///         .response(HTTPResponse(text: #"[{"name":"Rex"}]"#, contentType: "application/json"))
///     })
///     let (data, response) = try await host.session.data(from: URL(string: "https://api.example/pets")!)
///     #expect((response as? HTTPURLResponse)?.statusCode == 200)
/// }
/// ```
///
/// Release the host when the test is done: its session is invalidated, and a session made
/// from its ``configuration`` then fails its requests with `URLError.resourceUnavailable`.
public final class StubURLSessionHost: Sendable {
    /// The handler that answers this host's requests.
    public let handler: any HTTPHandler
    /// How replies' delays and dribbles are played.
    public let options: StubSessionOptions
    /// The session whose requests this host answers.
    public let session: URLSession
    let token: String
    private let delays = Locked<[Duration]>([])
    private let dribbles = Locked<[HTTPDribble]>([])

    /// Creates a host answering with `handler`.
    public init(handler: any HTTPHandler, options: StubSessionOptions = StubSessionOptions()) {
        self.handler = handler
        self.options = options
        let token = UUID().uuidString
        self.token = token
        session = URLSession(configuration: Self.configuration(token: token))
        StubSessionRegistry.register(self)
    }

    deinit {
        StubSessionRegistry.remove(token: token, session: StubSessionRegistry.address(of: session))
        session.finishTasksAndInvalidate()
    }

    /// A new ephemeral configuration whose sessions this host answers: ``StubURLProtocol``
    /// first in `protocolClasses`, and the host's token in `httpAdditionalHeaders` (taken off
    /// before the handler sees the request). Each read returns a new configuration to adjust.
    public var configuration: URLSessionConfiguration { Self.configuration(token: token) }

    /// The delays replies asked for, in the order they were met (each drawn once from its
    /// `HTTPDelay`), whether or not they were waited.
    public var recordedDelays: [Duration] { delays.withLock { $0 } }

    /// The dribbles replies asked for, in the order they were met, whether or not they were played.
    public var recordedDribbles: [HTTPDribble] { dribbles.withLock { $0 } }

    func record(delay: Duration) {
        delays.withLock { $0.append(delay) }
    }

    func record(dribble: HTTPDribble) {
        dribbles.withLock { $0.append(dribble) }
    }

    private static func configuration(token: String) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubURLProtocol.self] + (configuration.protocolClasses ?? [])
        var headers = configuration.httpAdditionalHeaders ?? [:]
        headers[StubSessionRegistry.tokenHeader] = token
        configuration.httpAdditionalHeaders = headers
        // Answers come from the handler each time, as from a server that forbids caching.
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return configuration
    }
}
