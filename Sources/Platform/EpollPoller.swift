#if os(Linux)
import CSystem
import Glibc

/// The Linux ``Poller``: epoll, edge-triggered for connections, with an eventfd for wake-ups.
package final class EpollPoller: Poller {
    /// The epoll descriptor (public for tests that break it on purpose).
    package let epoll: Int32
    private let wakeUp: WakeUpChannel
    private let events: UnsafeMutableRawPointer
    private let eventSize = csystem_epoll_event_size()
    private let capacity = 256
    package let wakeToken: UInt64 = .max - 1
    package var isEdgeTriggered: Bool { true }

    /// Opens the epoll descriptor and its wake-up channel.
    package init() throws(PlatformError) {
        epoll = epoll_create1(CSYSTEM_EPOLL_CLOEXEC)
        guard epoll >= 0 else { throw PlatformError.lastError("epoll_create1") }
        do {
            wakeUp = try WakeUpChannel()
        } catch {
            Descriptor.close(epoll)
            throw error
        }
        events = UnsafeMutableRawPointer.allocate(byteCount: eventSize * capacity, alignment: 8)
        do {
            try addReadable(wakeUp.readDescriptor, token: wakeToken)
        } catch {
            // Every stored property is set, so deinit runs after this throw and frees `events`.
            wakeUp.close()
            Descriptor.close(epoll)
            throw error
        }
    }

    deinit {
        events.deallocate()
    }

    package func addConnection(_ descriptor: Int32, token: UInt64) throws(PlatformError) {
        let mask = UInt32(CSYSTEM_EPOLLIN | CSYSTEM_EPOLLOUT | CSYSTEM_EPOLLRDHUP) | CSYSTEM_EPOLLET
        try control(EPOLL_CTL_ADD, descriptor, mask: mask, token: token)
    }

    package func addReadable(_ descriptor: Int32, token: UInt64) throws(PlatformError) {
        try control(EPOLL_CTL_ADD, descriptor, mask: UInt32(CSYSTEM_EPOLLIN), token: token)
    }

    package func watch(
        _ descriptor: Int32, token: UInt64, read: Bool, write: Bool, adding: Bool
    ) throws(PlatformError) {
        let mask = (read ? UInt32(CSYSTEM_EPOLLIN) : 0) | (write ? UInt32(CSYSTEM_EPOLLOUT) : 0)
        var event = epoll_event()
        csystem_epoll_event_set(&event, mask, token)
        // Added or changed as the caller guessed, else the other way: a number closed and
        // reused is one epoll forgot with the close.
        let first = adding ? EPOLL_CTL_ADD : EPOLL_CTL_MOD
        if epoll_ctl(epoll, first, descriptor, &event) == 0 { return }
        guard errno == (adding ? EEXIST : ENOENT) else { throw PlatformError.lastError("epoll_ctl") }
        try control(adding ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, descriptor, mask: mask, token: token)
    }

    package func setInterest(_ descriptor: Int32, read: Bool, write: Bool) {}

    package func remove(_ descriptor: Int32) {
        var event = epoll_event()
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, descriptor, &event)
    }

    private func control(_ operation: Int32, _ descriptor: Int32, mask: UInt32, token: UInt64) throws(PlatformError) {
        var event = epoll_event()
        csystem_epoll_event_set(&event, mask, token)
        guard epoll_ctl(epoll, operation, descriptor, &event) == 0 else { throw PlatformError.lastError("epoll_ctl") }
    }

    package func poll(timeoutMilliseconds: Int32) -> Int {
        let count = epoll_wait(
            epoll, events.assumingMemoryBound(to: epoll_event.self), Int32(capacity), timeoutMilliseconds)
        if count < 0 { return errno == EINTR ? 0 : -1 }
        return Int(count)
    }

    package func event(at index: Int) -> PollEvent {
        let event = (events + index * eventSize).assumingMemoryBound(to: epoll_event.self)
        let mask = csystem_epoll_event_events(event)
        return PollEvent(
            token: csystem_epoll_event_token(event),
            readable: mask & UInt32(CSYSTEM_EPOLLIN) != 0,
            writable: mask & UInt32(CSYSTEM_EPOLLOUT) != 0,
            hangup: mask & UInt32(CSYSTEM_EPOLLRDHUP | CSYSTEM_EPOLLHUP) != 0,
            error: mask & UInt32(CSYSTEM_EPOLLERR) != 0)
    }

    package func wake() {
        wakeUp.signal()
    }

    package func drainWake() {
        wakeUp.drain()
    }

    package func close() {
        wakeUp.close()
        Descriptor.close(epoll)
    }
}
#endif
