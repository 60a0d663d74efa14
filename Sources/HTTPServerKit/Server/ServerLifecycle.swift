import HTTPHandlerKit
import Platform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The state a server and its loops share across threads: phase, running loops, the
/// connection count, and who waits for the end.
final class ServerLifecycle: Sendable {
    enum Phase: Sendable { case idle, starting, running, stopping, stopped }

    struct State {
        var phase = Phase.idle
        var loops: [HTTPEventLoop] = []
        var startedLoops = 0
        var runningLoops = 0
        var connections = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
        var pendingSignals: [Int32] = []
        var signalChannel: WakeUpChannel?
        var forwardedSignals: [Int32] = []
    }

    let maxConnections: Int
    let state = Locked(State())

    init(maxConnections: Int) {
        self.maxConnections = maxConnections
    }

    var phase: Phase { state.withLock { $0.phase } }

    func acquireConnection() -> Bool {
        state.withLock { state in
            guard state.connections < maxConnections else { return false }
            state.connections += 1
            return true
        }
    }

    func releaseConnection() {
        state.withLock { $0.connections -= 1 }
    }

    func loopStarted() {
        state.withLock {
            $0.startedLoops += 1
            $0.runningLoops += 1
        }
        state.lock.broadcast()
    }

    /// Starts a graceful shutdown on every loop; later calls do nothing.
    func shutdown() {
        let loops: [HTTPEventLoop] = state.withLock { state in
            guard state.phase == .running || state.phase == .starting else { return [] }
            state.phase = .stopping
            return state.loops
        }
        for loop in loops {
            loop.execute { loop.beginShutdown() }
        }
    }

    /// Makes the signals write to a wake-up channel (an eventfd on Linux, a pipe elsewhere)
    /// that `loop` watches; its event starts a shutdown. The loop registers the channel on its
    /// own thread (a poller is not for other threads); a signal before that waits in it.
    func forwardSignals(_ signals: [Int32], to loop: HTTPEventLoop) {
        state.withLock { state in
            if state.signalChannel == nil {
                guard let channel = try? WakeUpChannel() else { return }
                state.signalChannel = channel
                loop.execute {
                    // Unless the loop stopped in between (and closed the channel).
                    guard self.state.withLock({ $0.signalChannel === channel }) else { return }
                    try? loop.poller.addReadable(channel.readDescriptor, token: HTTPEventLoop.signalToken)
                }
            }
            guard let channel = state.signalChannel else { return }
            for signal in signals where SignalForwarding.forward(signal, to: channel) {
                state.forwardedSignals.append(signal)
            }
        }
    }

    /// Consumes a forwarded signal and starts the shutdown.
    func signalReceived() {
        state.withLock { $0.signalChannel }?.drain()
        shutdown()
    }

    func loopStopped() {
        let waiters: [CheckedContinuation<Void, Never>] = state.withLock { state in
            state.runningLoops -= 1
            guard state.runningLoops == 0 else { return [] }
            state.phase = .stopped
            state.loops = []
            for signal in state.forwardedSignals { SignalForwarding.restore(signal) }
            state.forwardedSignals = []
            state.signalChannel?.close()
            state.signalChannel = nil
            defer { state.waiters = [] }
            return state.waiters
        }
        state.lock.broadcast()
        for waiter in waiters { waiter.resume() }
    }
}
