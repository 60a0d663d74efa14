/// The event loop a client runs in (``CurlSocketDriver``, ``LoopHTTPClient``): it watches the
/// descriptors the client names, keeps the one timer it asks for, and calls it back on its own
/// thread.
package protocol LoopSocketHost: AnyObject {
    /// Report `descriptor` (level-triggered) to ``CurlSocketDriver/socketReady(_:readable:writable:failed:)``
    /// while it is readable (`read`) or writable (`write`); a later call changes the interest.
    func watch(_ descriptor: Int32, read: Bool, write: Bool)
    /// Stop reporting `descriptor`; it is about to be closed, or is done with.
    func unwatch(_ descriptor: Int32)
    /// Nobody waits on `descriptor` for now, but it stays open for later (an idle connection
    /// in libcurl's cache): the host may keep it registered to save work, as long as nothing
    /// about it reaches the driver until it is watched again. ``unwatch(_:)`` comes before it
    /// is closed.
    func park(_ descriptor: Int32)
    /// Call ``CurlSocketDriver/timeoutReached()`` in `milliseconds` (0: before waiting again),
    /// or never (nil), replacing the previous request.
    func scheduleTimeout(milliseconds: Int?)
}
