import Platform

/// A flag that goes up once, read from any thread.
final class LockedFlag: Sendable {
    private let state = Locked(false)

    /// Whether it is up.
    var value: Bool { state.withLock { $0 } }

    /// Raises it.
    func set() {
        state.withLock { $0 = true }
    }
}
