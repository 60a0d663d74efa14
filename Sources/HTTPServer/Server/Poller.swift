/// What a readiness poller reported for one registered descriptor.
struct PollEvent {
    /// The token the descriptor was registered with.
    var token: UInt64
    var readable: Bool
    var writable: Bool
    /// The peer closed its side, or the descriptor hung up.
    var hangup: Bool
    var error: Bool
}

/// The one OS-specific piece of an event loop: readiness notification for descriptors,
/// plus a wake-up other threads can trigger. epoll implements it on Linux; a kqueue
/// backend for macOS would implement the same.
protocol Poller: AnyObject {
    /// Registers a connection socket for edge-triggered read and write readiness.
    func addConnection(_ descriptor: Int32, token: UInt64) throws(HTTPServerError)
    /// Registers a descriptor (listener, wake-up) for level-triggered read readiness.
    func addReadable(_ descriptor: Int32, token: UInt64) throws(HTTPServerError)
    /// Unregisters a descriptor (closing it does this too).
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
