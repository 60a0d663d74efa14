import Foundation

/// A value guarded by a lock, for state shared between threads and tasks.
///
/// `Synchronization.Mutex` would do, but it needs macOS 15 and the package still builds for
/// macOS 14; this wraps `NSLock`, which every platform has.
package final class Locked<Value: Sendable>: @unchecked Sendable {
    // Safe because every access to `value` happens inside `withLock`, under `lock`.
    private let lock = NSLock()
    private var value: Value

    /// Creates the guarded value.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
