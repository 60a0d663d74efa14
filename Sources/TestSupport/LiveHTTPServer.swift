import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import Platform

/// An `HTTPServer` for tests that need the wire: 127.0.0.1, port 0, one event loop unless
/// asked, a short shutdown grace; started when created, stopped by ``stop()`` or when
/// released. It keeps every request it was given, so a test can check what arrived and over
/// how many connections.
///
/// ```swift
/// let upstream = try LiveHTTPServer { request in .response(HTTPResponse(text: "hi")) }
/// let url = upstream.url("/api/pets")
/// ```
package final class LiveHTTPServer: Sendable {
    /// The running server.
    package let server: HTTPServer
    private let log = Locked<[HTTPServerRequest]>([])

    /// Starts `handler` on a free port.
    package convenience init(eventLoopCount: Int = 1, handler: some HTTPHandler) throws(HTTPServerError) {
        try self.init(
            configuration: HTTPServerConfiguration(
                host: "127.0.0.1", port: 0, eventLoopCount: eventLoopCount, shutdownGracePeriod: .milliseconds(100)),
            handler: handler)
    }

    /// Starts `handler` with a configuration of the test's own (its port should be 0).
    package init(configuration: HTTPServerConfiguration, handler: some HTTPHandler) throws(HTTPServerError) {
        let log = self.log
        server = HTTPServer(configuration: configuration) { request in
            log.withLock { $0.append(request) }
            return handler.reply(to: request)
        }
        try server.start()
    }

    /// Starts a handler made of a closure on a free port.
    package convenience init(
        eventLoopCount: Int = 1, _ handler: @escaping @Sendable (HTTPServerRequest) -> HTTPReply
    ) throws(HTTPServerError) {
        try self.init(eventLoopCount: eventLoopCount, handler: HTTPClosureHandler(handler))
    }

    deinit {
        server.stop()
    }

    /// The bound port.
    package var port: Int { server.port }

    /// `http://127.0.0.1:PORT`.
    package var baseURL: String { "http://127.0.0.1:\(server.port)" }

    /// `http://127.0.0.1:PORT` followed by `path`.
    package func url(_ path: String) -> String { baseURL + path }

    /// Stops the server and waits until it has (release does the same).
    package func stop() {
        server.stop()
    }

    /// Every request so far, in the order they were handled.
    package var requests: [HTTPServerRequest] { log.withLock { $0 } }

    /// How many distinct client connections the requests came over (by the peer's port).
    package var connectionCount: Int { Set(requests.map(\.remoteAddress.port)).count }
}
