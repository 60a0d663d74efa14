import Platform

/// The admin API's way to stop the server, set once the server exists.
final class ShutdownHook: Sendable {
    private let action = Locked<(@Sendable () -> Void)?>(nil)

    func set(_ action: @escaping @Sendable () -> Void) {
        self.action.withLock { $0 = action }
    }

    func run() {
        action.withLock { $0 }?()
    }
}
