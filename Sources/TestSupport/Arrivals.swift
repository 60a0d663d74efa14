import Foundation
import Platform

/// Events a test waits for without holding a thread: a receiver's handler calls ``signal()``
/// for each event, and the test suspends in ``next(timeout:)`` until one it has not taken yet
/// has come. Neither side blocks a thread of Swift's pool or of Dispatch's, which the code
/// under test needs to make the event happen.
///
/// ```swift
/// let arrivals = Arrivals()
/// let receiver = try LiveHTTPServer { _ in
///     defer { arrivals.signal() }
///     return .response(HTTPResponse(status: .noContent))
/// }
/// #expect(await arrivals.next(timeout: 20))
/// ```
package final class Arrivals: Sendable {
    private let state = Locked<(available: Int, waiter: (@Sendable () -> Void)?)>((0, nil))

    package init() {}

    /// One event has come: hands it to the waiting test, or keeps it for the next wait.
    package func signal() {
        let waiter = state.withLock { state -> (@Sendable () -> Void)? in
            guard let waiter = state.waiter else {
                state.available += 1
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?()
    }

    /// Suspends until an event not taken yet has come (true) or `timeout` seconds pass (false).
    package func next(timeout: TimeInterval) async -> Bool {
        await SuspendedWait.until(timeout: timeout) { done in
            let ready = state.withLock { state -> Bool in
                if state.available > 0 {
                    state.available -= 1
                    return true
                }
                state.waiter = done
                return false
            }
            if ready { done() }
        }
    }
}
