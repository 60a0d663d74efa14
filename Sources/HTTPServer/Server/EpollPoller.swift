#if os(Linux)
import CSystem
import Glibc

/// The Linux ``Poller``: epoll, with an eventfd for wake-ups.
final class EpollPoller: Poller {
    /// The epoll descriptor (internal for tests that break it on purpose).
    let epoll: Int32
    private let wakeDescriptor: Int32
    private let events: UnsafeMutableRawPointer
    private let eventSize = csystem_epoll_event_size()
    private let capacity = 256
    let wakeToken: UInt64 = .max - 1

    init() throws(HTTPServerError) {
        epoll = epoll_create1(CSYSTEM_EPOLL_CLOEXEC)
        guard epoll >= 0 else { throw .system(call: "epoll_create1", errno: errno) }
        wakeDescriptor = eventfd(0, CSYSTEM_EFD_NONBLOCK | CSYSTEM_EFD_CLOEXEC)
        guard wakeDescriptor >= 0 else {
            let error = errno
            Glibc.close(epoll)
            throw .system(call: "eventfd", errno: error)
        }
        events = UnsafeMutableRawPointer.allocate(byteCount: eventSize * capacity, alignment: 8)
        do {
            try addReadable(wakeDescriptor, token: wakeToken)
        } catch {
            // Every stored property is set, so deinit runs after this throw and frees `events`.
            Glibc.close(wakeDescriptor)
            Glibc.close(epoll)
            throw error
        }
    }

    deinit {
        events.deallocate()
    }

    func addConnection(_ descriptor: Int32, token: UInt64) throws(HTTPServerError) {
        let mask = UInt32(CSYSTEM_EPOLLIN | CSYSTEM_EPOLLOUT | CSYSTEM_EPOLLRDHUP) | CSYSTEM_EPOLLET
        try control(EPOLL_CTL_ADD, descriptor, mask: mask, token: token)
    }

    func addReadable(_ descriptor: Int32, token: UInt64) throws(HTTPServerError) {
        try control(EPOLL_CTL_ADD, descriptor, mask: UInt32(CSYSTEM_EPOLLIN), token: token)
    }

    func remove(_ descriptor: Int32) {
        var event = epoll_event()
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, descriptor, &event)
    }

    private func control(
        _ operation: Int32, _ descriptor: Int32, mask: UInt32, token: UInt64
    )
        throws(HTTPServerError)
    {
        var event = epoll_event()
        csystem_epoll_event_set(&event, mask, token)
        guard epoll_ctl(epoll, operation, descriptor, &event) == 0 else {
            throw .system(call: "epoll_ctl", errno: errno)
        }
    }

    func poll(timeoutMilliseconds: Int32) -> Int {
        let count = epoll_wait(
            epoll, events.assumingMemoryBound(to: epoll_event.self), Int32(capacity), timeoutMilliseconds)
        if count < 0 { return errno == EINTR ? 0 : -1 }
        return Int(count)
    }

    func event(at index: Int) -> PollEvent {
        let event = (events + index * eventSize).assumingMemoryBound(to: epoll_event.self)
        let mask = csystem_epoll_event_events(event)
        return PollEvent(
            token: csystem_epoll_event_token(event),
            readable: mask & UInt32(CSYSTEM_EPOLLIN) != 0,
            writable: mask & UInt32(CSYSTEM_EPOLLOUT) != 0,
            hangup: mask & UInt32(CSYSTEM_EPOLLRDHUP | CSYSTEM_EPOLLHUP) != 0,
            error: mask & UInt32(CSYSTEM_EPOLLERR) != 0)
    }

    func wake() {
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, 8)
    }

    func drainWake() {
        var value: UInt64 = 0
        _ = read(wakeDescriptor, &value, 8)
    }

    func close() {
        Glibc.close(wakeDescriptor)
        Glibc.close(epoll)
    }
}

/// The poller of this platform.
typealias PlatformPoller = EpollPoller
#endif
