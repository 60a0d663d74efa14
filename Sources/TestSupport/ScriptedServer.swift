import Platform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback HTTP server that misbehaves on purpose, at the byte level: each request head's
/// path goes to `behaviour`, which writes whatever it likes to the ``ScriptedConnection``
/// (truncated bodies, garbage, endless streams, nothing). Port 0; one thread per connection,
/// so a slow or endless answer holds nothing else up. Ready when `init` returns.
///
/// ``stop()`` (or release) closes the listener, hangs up every open connection — a behaviour
/// still writing sees the client gone, a read ends — and returns once every connection's
/// thread has finished: it waits on those threads, never on a timer.
///
/// ```swift
/// let server = try ScriptedServer { path, connection in
///     connection.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n[{\"a\"")
///     connection.hangUp()
/// }
/// defer { server.stop() }
/// ```
package final class ScriptedServer: Sendable {
    /// The port it listens on.
    package let port: Int
    private let listener: Int32
    private let acceptThread: PlatformThread
    private let state: Locked<State>

    private struct State {
        var stopping = false
        /// Connections whose thread has not finished (closed by that thread, under the lock).
        var open: Set<Int32> = []
        var accepted = 0
    }

    /// Listens on a free loopback port and answers every request head with `behaviour`.
    package init(
        behaviour: @escaping @Sendable (_ path: String, _ connection: ScriptedConnection) -> Void
    ) throws(RawClientError) {
        let (listener, port) = try LoopbackSocket.bind(listening: 64)
        let state = Locked(State())
        do {
            acceptThread = try PlatformThread.start { Self.acceptLoop(listener, state, behaviour) }
        } catch {
            close(listener)
            throw .system("pthread_create", EAGAIN)
        }
        self.listener = listener
        self.port = port
        self.state = state
    }

    deinit {
        stop()
    }

    /// `http://127.0.0.1:PORT`.
    package var baseURL: String { "http://127.0.0.1:\(port)" }

    /// How many connections were accepted so far.
    package var acceptedCount: Int { state.withLock { $0.accepted } }

    /// Stops accepting, hangs up every open connection and waits until each has finished.
    package func stop() {
        let first = state.withLock { state in
            defer { state.stopping = true }
            for descriptor in state.open { shutdown(descriptor, Int32(SHUT_RDWR)) }
            return !state.stopping
        }
        if first {
            shutdown(listener, Int32(SHUT_RDWR))  // wakes the accept thread
            acceptThread.join()
            close(listener)  // only now: the accept thread can no longer use the number
        }
        state.wait { $0.open.isEmpty }
    }

    private static func acceptLoop(
        _ listener: Int32, _ state: Locked<State>,
        _ behaviour: @escaping @Sendable (String, ScriptedConnection) -> Void
    ) {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if state.withLock({ $0.stopping }) { return }
                continue
            }
            // Not inherited by a child a test starts meanwhile (ChildProcess closes them anyway).
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            let admitted = state.withLock { state in
                guard !state.stopping else { return false }
                state.open.insert(client)
                state.accepted += 1
                return true
            }
            guard admitted else {
                close(client)
                return
            }
            do {
                try PlatformThread.start {
                    serve(ScriptedConnection(descriptor: client), behaviour)
                    finish(client, state)
                }.detach()
            } catch {
                finish(client, state)
            }
        }
    }

    /// Hands each request head's path to the behaviour, until the client closes or hangs up.
    private static func serve(
        _ connection: ScriptedConnection, _ behaviour: @Sendable (String, ScriptedConnection) -> Void
    ) {
        var pending: [UInt8] = []
        while let head = connection.readHead(&pending) {
            behaviour(ScriptedConnection.path(ofHead: head), connection)
        }
    }

    /// Closes a finished connection, under the lock so that ``stop()`` never shuts down a
    /// number already reused, and wakes a waiting `stop()`.
    private static func finish(_ client: Int32, _ state: Locked<State>) {
        state.withLock { state in
            state.open.remove(client)
            close(client)
        }
        state.lock.broadcast()
    }
}
