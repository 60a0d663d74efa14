/// What a readiness poller reported for one registered descriptor.
package struct PollEvent: Sendable, Hashable {
    /// The token the descriptor was registered with.
    package var token: UInt64
    /// Bytes (or an end of stream) can be read.
    package var readable: Bool
    /// Bytes can be written.
    package var writable: Bool
    /// The peer closed its side, or the descriptor hung up.
    package var hangup: Bool
    /// The descriptor has a pending error (or is not open).
    package var error: Bool

    /// Creates an event.
    package init(token: UInt64, readable: Bool, writable: Bool, hangup: Bool, error: Bool) {
        self.token = token
        self.readable = readable
        self.writable = writable
        self.hangup = hangup
        self.error = error
    }
}

/// Readiness notification for descriptors, plus a wake-up other threads can trigger: the one
/// OS-specific piece of an event loop. ``EpollPoller`` (Linux) and ``PollPoller`` (`poll(2)`,
/// everywhere) implement it; a kqueue back end for macOS would implement the same.
///
/// All methods but ``wake()`` are for the polling thread only.
package protocol Poller: AnyObject {
    /// Whether a connection's readiness is reported once per change (epoll's edge-triggered
    /// mode) rather than for as long as it lasts. The owner of a level-triggered poller tells
    /// it through ``setInterest(_:read:write:)`` what it waits for before each poll, or the
    /// same readiness comes back at every poll.
    var isEdgeTriggered: Bool { get }
    /// Registers a connection socket for read and write readiness (edge-triggered where the
    /// poller is, else for reading until ``setInterest(_:read:write:)`` says otherwise).
    func addConnection(_ descriptor: Int32, token: UInt64) throws(PlatformError)
    /// Registers a descriptor (listener, wake-up) for level-triggered read readiness.
    func addReadable(_ descriptor: Int32, token: UInt64) throws(PlatformError)
    /// Registers `descriptor`, or changes its registration, to be reported level-triggered
    /// (on every poll while it lasts, by either back end) when readable and/or writable as
    /// asked: for descriptors a loop-local component owns (libcurl's sockets), whose interest
    /// changes as the component says. Unregister with ``remove(_:)``. `adding` says whether the
    /// caller believes it is not registered yet (a hint that saves epoll a failing call; a
    /// wrong guess still works).
    func watch(_ descriptor: Int32, token: UInt64, read: Bool, write: Bool, adding: Bool) throws(PlatformError)
    /// What a connection waits for (level-triggered pollers; edge-triggered ones ignore it).
    func setInterest(_ descriptor: Int32, read: Bool, write: Bool)
    /// Unregisters a descriptor; call it before closing one.
    func remove(_ descriptor: Int32)
    /// Waits up to `timeoutMilliseconds` (-1: forever) and returns how many events arrived
    /// (0 when interrupted), or -1 when the poller itself failed and cannot be used again.
    func poll(timeoutMilliseconds: Int32) -> Int
    /// One event of the last ``poll(timeoutMilliseconds:)``.
    func event(at index: Int) -> PollEvent
    /// Wakes a thread blocked in ``poll(timeoutMilliseconds:)``; callable from any thread.
    func wake()
    /// Consumes pending wake-ups; called on the polling thread when the wake token fires.
    func drainWake()
    /// The token under which wake-ups are reported.
    var wakeToken: UInt64 { get }
    /// Releases the poller's descriptors.
    func close()
}
