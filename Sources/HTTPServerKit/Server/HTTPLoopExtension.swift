import HTTPHandlerKit
import Platform

/// A component that lives on one event loop beside its connections, with descriptors of its
/// own and one deadline: an HTTP client driven by the loop (libcurl's multi-socket API), say,
/// so that work a handler starts is progressed and completed on the handler's own thread.
///
/// A handler gets its loop's instance with ``HTTPEventLoop/loopExtension(_:)`` (made on first
/// use, one per loop and type), through the request's ``HTTPServerRequest/eventLoop``. The loop
/// calls every method on its own thread: ``descriptorReady(_:readable:writable:failed:)`` for
/// the descriptors the extension watches (``HTTPEventLoop/watch(_:read:write:for:)``,
/// level-triggered with either poller), ``deadlineReached()`` once ``deadline`` has passed, and
/// ``loopStopped()`` when the loop ends. None of them may block: this is the loop's time.
package protocol HTTPLoopExtension: AnyObject {
    /// A descriptor the extension watches is ready (or failed: hung up, in error).
    func descriptorReady(_ descriptor: Int32, readable: Bool, writable: Bool, failed: Bool)
    /// When ``deadlineReached()`` is due, in the loop's time (``HTTPEventLoop/currentTime``),
    /// or nil for never. Read before each wait, so changing it takes effect at the next one.
    var deadline: UInt64? { get }
    /// ``deadline`` has passed. The extension sets a new one (or nil) itself.
    func deadlineReached()
    /// The loop is ending: release descriptors and fail whatever is under way. The
    /// connections the work was for are closed or about to be.
    func loopStopped()
    /// The loop has handled what was ready and is about to wait: the moment to send what was
    /// queued meanwhile (a peer woken then does not preempt work the loop still had to do).
    func beforeWait()
}

extension HTTPLoopExtension {
    /// Nothing to do before the loop waits.
    package func beforeWait() {}
}

extension HTTPEventLoop {
    /// The loop's extension of type `E`, made with `make` the first time one is asked for.
    /// Call it on the loop's thread only (a handler's `reply(to:)` runs there).
    package func loopExtension<E: HTTPLoopExtension>(_ make: () -> E) -> E {
        precondition(inEventLoop, "a loop extension is used on its loop's thread only")
        let key = ObjectIdentifier(E.self)
        if let existing = extensions[key] as? E { return existing }
        let made = make()
        extensions[key] = made
        extensionList.append(made)
        return made
    }

    /// Watches `descriptor` for `extension`, level-triggered: reported while it is readable
    /// (with `read`) or writable (with `write`). Calling it again changes the interest. Loop
    /// thread only.
    package func watch(
        _ descriptor: Int32, read: Bool, write: Bool, for loopExtension: any HTTPLoopExtension
    ) throws(HTTPServerError) {
        let current = watched[descriptor]
        if let current, current.read == read, current.write == write {
            // Registered as asked already (parked, say): no system call.
            watched[descriptor] = Watch(owner: loopExtension, read: read, write: write, parked: false)
            return
        }
        let token = Self.extensionToken(descriptor)
        try HTTPServerError.platform { () throws(PlatformError) in
            try poller.watch(descriptor, token: token, read: read, write: write, adding: current == nil)
        }
        watched[descriptor] = Watch(owner: loopExtension, read: read, write: write, parked: false)
    }

    /// Says the extension waits on `descriptor` no more for now, but likely will again soon
    /// (a kept-alive connection between two uses): it stays registered, so watching it again
    /// with the same interest costs no system call, and a report for it meanwhile unregisters
    /// it instead of reaching the extension. Call ``unwatch(_:)`` before closing it. Loop
    /// thread only.
    package func park(_ descriptor: Int32) {
        // Read, then written back: no modify accessor (whose frame is allocated per call).
        guard var entry = watched[descriptor] else { return }
        entry.parked = true
        watched[descriptor] = entry
    }

    /// Stops watching `descriptor` (before it is closed). Loop thread only.
    package func unwatch(_ descriptor: Int32) {
        guard watched.removeValue(forKey: descriptor) != nil else { return }
        poller.remove(descriptor)
    }

    /// The loop's time in nanoseconds (its clock's monotonic reading), the scale of
    /// ``HTTPLoopExtension/deadline``.
    package var currentTime: UInt64 { clock.monotonicNanoseconds }

    /// Tokens of extension descriptors carry generation 0, which no connection has.
    static func extensionToken(_ descriptor: Int32) -> UInt64 {
        UInt64(UInt32(bitPattern: descriptor))
    }

    /// Hands a poll event on an extension's descriptor to its extension.
    func handleExtensionEvent(_ event: PollEvent) {
        let descriptor = Int32(bitPattern: UInt32(truncatingIfNeeded: event.token))
        // An event from the same wait as the unwatch of its descriptor is dropped.
        guard let entry = watched[descriptor] else { return }
        guard !entry.parked else {
            // Nobody waits on it: stop the reports (level-triggered, they would repeat).
            watched[descriptor] = nil
            poller.remove(descriptor)
            return
        }
        entry.owner.descriptorReady(
            descriptor, readable: event.readable, writable: event.writable, failed: event.hangup || event.error)
    }

    /// Lets every extension send what it queued, before the loop waits.
    func extensionsBeforeWait() {
        for loopExtension in extensionList { loopExtension.beforeWait() }
    }

    /// The earliest extension deadline, or nil.
    var earliestExtensionDeadline: UInt64? {
        var earliest: UInt64?
        for loopExtension in extensionList {
            if let deadline = loopExtension.deadline { earliest = min(earliest ?? .max, deadline) }
        }
        return earliest
    }

    /// Calls the extensions whose deadline has passed (by a fresh reading of the clock, so a
    /// deadline set for "now" while the loop handled events runs before it waits again).
    func runExtensionDeadlines() {
        guard !extensionList.isEmpty else { return }
        let current = clock.monotonicNanoseconds
        for loopExtension in extensionList {
            if let deadline = loopExtension.deadline, deadline <= current { loopExtension.deadlineReached() }
        }
    }

    /// A descriptor an extension watches: whose it is, for what, and whether it is parked.
    struct Watch {
        let owner: any HTTPLoopExtension
        var read: Bool
        var write: Bool
        var parked: Bool
    }

    /// Tells the extensions the loop ends, and forgets them and their descriptors.
    func stopExtensions() {
        let stopping = extensionList
        extensionList = []
        extensions = [:]
        for loopExtension in stopping { loopExtension.loopStopped() }
        for descriptor in watched.keys { poller.remove(descriptor) }
        watched = [:]
    }
}
