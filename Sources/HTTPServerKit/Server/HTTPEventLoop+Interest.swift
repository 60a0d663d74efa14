import HTTPHandlerKit
import Platform

extension HTTPEventLoop {
    /// Tells a level-triggered poller what each connection waits for before the loop waits:
    /// writability only while a write is blocked, readability only while the connection
    /// would read. A socket it would not read (back pressure, a peer that closed its side)
    /// left in the wait would be reported at every poll, and the loop would spin.
    func updateInterest() {
        for case let connection? in connections where !connection.isClosed {
            poller.setInterest(connection.descriptor, read: connection.wantsToRead, write: connection.writeBlocked)
        }
    }
}

extension Connection {
    /// Whether ``onReadable()`` would read from the socket now: to drain while lingering, else
    /// by the same rule `readAvailable` reads by.
    var wantsToRead: Bool {
        if case .lingering = machine.state { return true }
        return readsInput
    }
}
