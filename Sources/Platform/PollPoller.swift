#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The portable ``Poller``: `poll(2)` over an array of descriptors, level-triggered, with a
/// pipe ``WakeUpChannel`` for wake-ups (on Linux too, so that it runs the code macOS runs). Each wait costs O(registered descriptors), so it suits the
/// systems without epoll and a second back end for the tests; epoll is the fast one on Linux.
///
/// A descriptor whose interest is neither reading nor writing is left out of the wait (its
/// slot holds -1), so a socket the owner does not read from yet (back pressure, a peer that
/// closed its side) is not reported again and again.
package final class PollPoller: Poller {
    private var entries: [pollfd] = []
    private var descriptors: [Int32] = []
    private var tokens: [UInt64] = []
    private var positions: [Int32: Int] = [:]
    private var ready: [PollEvent] = []
    private let wakeUp: WakeUpChannel
    package let wakeToken: UInt64 = .max - 1
    package var isEdgeTriggered: Bool { false }

    /// Opens the wake-up channel (a pipe, as on systems without eventfd) and watches it.
    package init() throws(PlatformError) {
        wakeUp = try WakeUpChannel(.pipe)
        insert(wakeUp.readDescriptor, token: wakeToken, events: Int16(POLLIN))
    }

    package func addConnection(_ descriptor: Int32, token: UInt64) throws(PlatformError) {
        try add(descriptor, token: token)
    }

    package func addReadable(_ descriptor: Int32, token: UInt64) throws(PlatformError) {
        try add(descriptor, token: token)
    }

    private func add(_ descriptor: Int32, token: UInt64) throws(PlatformError) {
        guard descriptor >= 0 else { throw .system(call: "poll registration", errno: EBADF) }
        // A number closed without remove() and reused: the new registration replaces the old.
        remove(descriptor)
        insert(descriptor, token: token, events: Int16(POLLIN))
    }

    private func insert(_ descriptor: Int32, token: UInt64, events: Int16) {
        positions[descriptor] = entries.count
        entries.append(pollfd(fd: descriptor, events: events, revents: 0))
        descriptors.append(descriptor)
        tokens.append(token)
    }

    package func watch(
        _ descriptor: Int32, token: UInt64, read: Bool, write: Bool, adding: Bool
    ) throws(PlatformError) {
        guard descriptor >= 0 else { throw .system(call: "poll registration", errno: EBADF) }
        if let position = positions[descriptor] {
            tokens[position] = token
        } else {
            insert(descriptor, token: token, events: 0)
        }
        setInterest(descriptor, read: read, write: write)
    }

    package func setInterest(_ descriptor: Int32, read: Bool, write: Bool) {
        guard let position = positions[descriptor] else { return }
        let events = (read ? Int16(POLLIN) : 0) | (write ? Int16(POLLOUT) : 0)
        entries[position].events = events
        entries[position].fd = events == 0 ? -1 : descriptor
    }

    package func remove(_ descriptor: Int32) {
        guard let position = positions.removeValue(forKey: descriptor) else { return }
        let last = entries.count - 1
        if position != last {
            entries[position] = entries[last]
            descriptors[position] = descriptors[last]
            tokens[position] = tokens[last]
            positions[descriptors[position]] = position
        }
        entries.removeLast()
        descriptors.removeLast()
        tokens.removeLast()
    }

    package func poll(timeoutMilliseconds: Int32) -> Int {
        ready.removeAll(keepingCapacity: true)
        let count = entries.withUnsafeMutableBufferPointer { buffer in
            #if canImport(Glibc)
            Glibc.poll(buffer.baseAddress, nfds_t(buffer.count), timeoutMilliseconds)
            #else
            Darwin.poll(buffer.baseAddress, nfds_t(buffer.count), timeoutMilliseconds)
            #endif
        }
        if count < 0 { return errno == EINTR || errno == EAGAIN ? 0 : -1 }
        guard count > 0 else { return 0 }
        var invalid: [Int32] = []
        for position in entries.indices where entries[position].revents != 0 {
            let returned = entries[position].revents
            entries[position].revents = 0
            if returned & Int16(POLLNVAL) != 0 { invalid.append(descriptors[position]) }
            ready.append(
                PollEvent(
                    token: tokens[position],
                    readable: returned & Int16(POLLIN) != 0,
                    writable: returned & Int16(POLLOUT) != 0,
                    hangup: returned & Int16(POLLHUP) != 0,
                    error: returned & Int16(POLLERR | POLLNVAL) != 0))
        }
        // A descriptor closed without remove() would be reported invalid at every wait.
        for descriptor in invalid { remove(descriptor) }
        return ready.count
    }

    package func event(at index: Int) -> PollEvent {
        ready[index]
    }

    package func wake() {
        wakeUp.signal()
    }

    package func drainWake() {
        wakeUp.drain()
    }

    package func close() {
        wakeUp.close()
        entries = []
        descriptors = []
        tokens = []
        positions = [:]
    }
}
