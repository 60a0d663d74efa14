import HTTPClient
import HTTPServerKit
import MockEngine
import StubServerCore

extension UpstreamClients {
    /// The socket server's upstream clients: on each event loop its ``LoopUpstream`` (petmock's
    /// own client for plain `http://` at a numeric address, libcurl's multi-socket driver for
    /// the rest), and libcurl's shared I/O thread for requests sent from anywhere else.
    static func server(_ settings: UpstreamSettings) -> UpstreamClients {
        UpstreamClients(
            makeTransport: { settings in
                CurlTransport(
                    configuration: LoopUpstream.configuration(
                        settings, cachedConnections: LoopUpstream.cachedConnections)
                )
            },
            sendOnLoop: { request, requestLoop, completion, willStart in
                guard let loop = requestLoop as? HTTPEventLoop, loop.inEventLoop else { return .notOnLoop }
                let upstream = loop.loopExtension { LoopUpstream(loop: loop, settings: settings) }
                guard upstream.hasRoom else { return .full }
                let route = upstream.route(for: request)
                if case .native = route { willStart(true) } else { willStart(false) }
                upstream.send(request, via: route, completion: completion)
                return .started
            },
            scheduleOnLoop: eventLoopTimers)
    }
}
