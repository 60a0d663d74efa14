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
    /// This host's number in ``StubSessionRegistry``, spelled by its protocol class's type.
    let index: Int
    /// The session, made on first use (a host used only through ``configuration``, or to
    /// claim `URLSession.shared`, makes none).
    private let madeSession = Locked<URLSession?>(nil)
    private let delays = Locked<[Duration]>([])
    private let dribbles = Locked<[HTTPDribble]>([])

    /// Creates a host answering with `handler`.
    public init(handler: any HTTPHandler, options: StubSessionOptions = StubSessionOptions()) {
        self.handler = handler
        self.options = options
        index = StubSessionRegistry.newIndex()
        StubSessionRegistry.register(self)
    }

    deinit {
        StubSessionRegistry.remove(index: index)
        madeSession.withLock { $0 }?.finishTasksAndInvalidate()
    }

    /// The session whose requests this host answers (made from ``configuration`` on first use).
    public var session: URLSession {
        madeSession.withLock { made in
            if let made { return made }
            let session = URLSession(configuration: configuration)
            made = session
            return session
        }
    }

    /// A new ephemeral configuration whose sessions this host answers: the host's
    /// ``protocolClass`` first in `protocolClasses`, no cache. Each read returns a new
    /// configuration to adjust.
    public var configuration: URLSessionConfiguration {
        Self.configuration(protocolClass: protocolClass)
    }

    /// The URLProtocol class that answers for this host and no other: a subclass of
    /// ``StubURLProtocol`` made for it. Put it first in the `protocolClasses` of a
    /// configuration of your own (``configuration`` already has it). Once the host is
    /// released, the class fails its requests with `URLError.resourceUnavailable`.
    public var protocolClass: AnyClass { StubHostKeyRoot.protocolClass(for: index) }

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

    private static func configuration(protocolClass: AnyClass) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [protocolClass] + (configuration.protocolClasses ?? [])
        // Answers come from the handler each time, as from a server that forbids caching.
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return configuration
    }
}
