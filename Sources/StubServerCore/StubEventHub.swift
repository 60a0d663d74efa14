import MockEngine
import Platform

/// Hands a stub server's events to every subscriber's stream.
final class StubEventHub: Sendable {
    private struct State {
        var next = 0
        var continuations: [Int: AsyncStream<StubServerEvent>.Continuation] = [:]
        var finished = false
    }

    private let state = Locked(State())

    func subscribe() -> AsyncStream<StubServerEvent> {
        let (stream, continuation) = AsyncStream<StubServerEvent>.makeStream()
        let finished = state.withLock { state -> Bool in
            guard !state.finished else { return true }
            let key = state.next
            state.next += 1
            state.continuations[key] = continuation
            continuation.onTermination = { [weak self] _ in
                self?.state.withLock { _ = $0.continuations.removeValue(forKey: key) }
            }
            return false
        }
        if finished { continuation.finish() }
        return stream
    }

    func publish(_ event: StubServerEvent) {
        let continuations = state.withLock { Array($0.continuations.values) }
        for continuation in continuations { continuation.yield(event) }
    }

    func finish() {
        let continuations = state.withLock { state in
            state.finished = true
            defer { state.continuations = [:] }
            return Array(state.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }
}
