import HTTPCore
import HTTPServer
import Synchronization

/// Our HTTPServer on 127.0.0.1, port 0, with a handler per test; records every request and
/// its peer port so tests can count connections. Stops when released.
final class LiveServer: Sendable {
    private final class Log: Sendable {
        let entries = Mutex<[HTTPServerRequest]>([])
    }

    let server: HTTPServer
    private let log = Log()

    init(_ handler: @escaping @Sendable (HTTPServerRequest) -> HTTPReply) throws {
        let log = self.log
        server = HTTPServer(
            configuration: HTTPServerConfiguration(
                port: 0, eventLoopCount: 1, shutdownGracePeriod: .milliseconds(50))
        ) {
            request in
            log.entries.withLock { $0.append(request) }
            return handler(request)
        }
        try server.start()
    }

    deinit {
        server.stop()
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(server.port)\(path)" }

    var requests: [HTTPServerRequest] { log.entries.withLock { $0 } }

    /// How many distinct client connections the requests came over.
    var connectionCount: Int { Set(requests.map(\.remoteAddress.port)).count }
}
