import Dispatch
import Foundation
import Platform

/// Waits for an event with a time limit, suspending the calling task instead of blocking its
/// thread: a test that waits on a child process or a pipe holds no thread of Swift's pool,
/// which other tests' tasks need (a pool as wide as the machine has cores).
///
/// ```swift
/// let exited = await SuspendedWait.until(timeout: 10) { done in group.notify(queue: .global(), execute: done) }
/// ```
package enum SuspendedWait {
    /// Suspends until `arm`'s callback is called or `timeout` seconds pass; returns whether the
    /// callback came first. `arm` runs once, at once; its callback may be called from any
    /// thread, any number of times.
    package static func until(
        timeout: TimeInterval, _ arm: (_ done: @escaping @Sendable () -> Void) -> Void
    ) async -> Bool {
        let once = ResumeOnce()
        return await withCheckedContinuation { continuation in
            once.hold(continuation)
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { once.resume(returning: false) }
            arm { once.resume(returning: true) }
        }
    }
}

/// A continuation resumed by the first of several callers.
private final class ResumeOnce: Sendable {
    private let continuation = Locked<CheckedContinuation<Bool, Never>?>(nil)

    func hold(_ waiting: CheckedContinuation<Bool, Never>) {
        continuation.withLock { $0 = waiting }
    }

    func resume(returning value: Bool) {
        let taken = continuation.withLock { held -> CheckedContinuation<Bool, Never>? in
            defer { held = nil }
            return held
        }
        taken?.resume(returning: value)
    }
}
