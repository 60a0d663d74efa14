import AdminAPI
import HTTPHandlerKit
import HTTPServerKit
import MockEngine
import StubFormat

/// petmock's engine (a ``StubHandler``) on HTTPServerKit's sockets: the composition every
/// socket front end shares. StubServerKit's `StubServer` gives it libcurl and its own loop
/// clients for upstreams, an HTTPS port and file watching; LoopbackStubs' `LoopbackStubServer`
/// gives it a URLSession for upstreams and one plain port. It knows neither libcurl nor TLS:
/// the upstream clients and the servers' configurations (an HTTPS one carries its
/// ``ConnectionSecurity``) are its front end's.
package final class StubServerHost: Sendable {
    /// The engine as a handler, which every server runs.
    package let handler: StubHandler
    /// The servers, one per port, each running ``handler``: the first takes the signals, and a
    /// signal that stops it stops them all.
    package let servers: [HTTPServer]
    private let hub = StubEventHub()
    private let hook = ShutdownHook()

    /// Sets up the engine (a stub folder, if given, plus mappings built in Swift) and one server
    /// per configuration (at least one), none started. `/__admin/shutdown` shuts the servers
    /// down, unless ``onShutdownRequest(_:)`` says otherwise.
    package init(
        stubsDirectory: String?, mappings: [StubMapping], configuration: StubHandlerConfiguration,
        upstream: UpstreamClients, servers: [HTTPServerConfiguration]
    ) throws(StubSetupError) {
        precondition(!servers.isEmpty, "a stub server listens on at least one port")
        let hub = self.hub
        let hook = self.hook
        let handler = try StubHandler(
            stubsDirectory: stubsDirectory, mappings: mappings, configuration: configuration, upstream: upstream,
            publish: { hub.publish($0) }, shutdown: { hook.run() })
        self.handler = handler
        self.servers = servers.map { HTTPServer(configuration: $0, handler: handler) }
        hook.set { [weak self] in self?.shutdown() }
    }

    /// What `/__admin/shutdown` does instead of ``shutdown()`` (a front end that stops more).
    package func onShutdownRequest(_ action: @escaping @Sendable () -> Void) {
        hook.set(action)
    }

    /// Starts every server; returns once each accepts connections. When one cannot start, those
    /// started are stopped (their ports freed) and its error is thrown.
    package func start() throws(HTTPServerError) {
        var started: [HTTPServer] = []
        for server in servers {
            do {
                try server.start()
            } catch {
                for running in started { running.stop() }
                throw error
            }
            started.append(server)
        }
    }

    /// The first server's bound port (after ``start()``).
    package var port: Int { servers[0].port }

    /// Begins a graceful shutdown of every server, ends the event streams and returns at once.
    package func shutdown() {
        for server in servers { server.shutdown() }
        hub.finish()
    }

    /// Shuts down and waits until every server has stopped and freed its port.
    package func stop() {
        shutdown()
        waitUntilStopped()
    }

    /// Blocks until the servers have stopped: the first (by a shutdown or a signal), then the
    /// others, which its stop shuts down.
    package func waitUntilStopped() {
        servers[0].waitUntilStopped()
        for server in servers.dropFirst() {
            server.shutdown()
            server.waitUntilStopped()
        }
    }

    /// Suspends until the servers have stopped, as ``waitUntilStopped()`` blocks.
    package func stopped() async {
        await servers[0].stopped()
        for server in servers.dropFirst() {
            server.shutdown()
            await server.stopped()
        }
    }

    /// Makes SIGINT and SIGTERM shut the first server down gracefully (for command-line use).
    package func shutdownOnSignals() {
        servers[0].shutdownOnSignals()
    }

    /// A stream of what the server does on its own (reloads), from now until it stops.
    package func events() -> AsyncStream<StubServerEvent> {
        hub.subscribe()
    }

    /// Hands `event` to every stream of ``events()``.
    package func publish(_ event: StubServerEvent) {
        hub.publish(event)
    }

    /// `SCHEME://HOST:PORT` for a server listening on `host`: `0.0.0.0` becomes `127.0.0.1`,
    /// an IPv6 literal is bracketed.
    package static func url(scheme: String, host: String, port: Int) -> String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(shown == "0.0.0.0" ? "127.0.0.1" : shown):\(port)"
    }
}
