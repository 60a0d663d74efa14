import Platform
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The pollers as values: what they report for a pipe, and when they stay quiet.
@Suite struct PollerTests {
    /// Every back end this system has.
    static let kinds = PollerKind.backEnds

    /// A pipe whose ends close when the test ends.
    final class Pipe {
        let read: Int32
        let write: Int32

        init() throws {
            var ends: [Int32] = [-1, -1]
            try #require(pipe(&ends) == 0)
            read = ends[0]
            write = ends[1]
            try #require(Descriptor.makeNonBlockingAndCloseOnExec(read))
        }

        func put(_ byte: UInt8) {
            var byte = byte
            _ = Descriptor.write(write, &byte, 1)
        }

        deinit {
            Descriptor.close(read)
            Descriptor.close(write)
        }
    }

    private func tokens(_ poller: any Poller, timeout: Int32 = 0) -> [UInt64] {
        let count = poller.poll(timeoutMilliseconds: timeout)
        return (0..<max(0, count)).map { poller.event(at: $0).token }
    }

    @Test(arguments: kinds) func aReadableDescriptorIsReportedUnderItsToken(kind: PollerKind) throws {
        let poller = try kind.makePoller()
        defer { poller.close() }
        let pipe = try Pipe()
        try poller.addConnection(pipe.read, token: 42)
        #expect(tokens(poller).isEmpty)
        pipe.put(1)
        let count = poller.poll(timeoutMilliseconds: 1000)
        #expect(count == 1)
        let event = poller.event(at: 0)
        #expect(event.token == 42 && event.readable && !event.error)
        poller.remove(pipe.read)
        pipe.put(2)
        #expect(tokens(poller).isEmpty)
    }

    @Test(arguments: kinds) func wakeUpsArriveUnderTheWakeTokenAndDrain(kind: PollerKind) throws {
        let poller = try kind.makePoller()
        defer { poller.close() }
        poller.wake()
        poller.wake()
        #expect(tokens(poller, timeout: 1000) == [poller.wakeToken])
        poller.drainWake()
        #expect(tokens(poller).isEmpty)
    }

    @Test func thePollBackEndLeavesOutWhatNobodyWaitsFor() throws {
        let poller = try PollPoller()
        defer { poller.close() }
        let pipe = try Pipe()
        try poller.addConnection(pipe.read, token: 7)
        pipe.put(1)
        // Level-triggered: reported at every poll while unread, unless the owner says it waits
        // for nothing (the back-pressure case), so the loop does not spin.
        #expect(tokens(poller) == [7])
        #expect(tokens(poller) == [7])
        poller.setInterest(pipe.read, read: false, write: false)
        #expect(tokens(poller).isEmpty)
        poller.setInterest(pipe.read, read: true, write: false)
        #expect(tokens(poller) == [7])
        #expect(!poller.isEdgeTriggered)
    }

    @Test(arguments: kinds) func aWatchedDescriptorIsLevelTriggeredAndItsInterestChanges(kind: PollerKind) throws {
        let poller = try kind.makePoller()
        defer { poller.close() }
        let pipe = try Pipe()
        try poller.watch(pipe.read, token: 5, read: true, write: false, adding: true)
        #expect(tokens(poller).isEmpty)
        pipe.put(1)
        // Level-triggered with either back end: reported at every poll while unread.
        #expect(tokens(poller, timeout: 1000) == [5])
        #expect(tokens(poller) == [5])
        try poller.watch(pipe.read, token: 6, read: false, write: false, adding: false)
        #expect(tokens(poller).isEmpty, "no interest, no report")
        // A wrong guess of `adding` (here and below) still registers as asked.
        try poller.watch(pipe.read, token: 6, read: true, write: false, adding: true)
        #expect(tokens(poller) == [6], "the new token")
        try poller.watch(pipe.write, token: 8, read: false, write: true, adding: false)
        #expect(Set(tokens(poller)) == [6, 8])
        poller.remove(pipe.read)
        poller.remove(pipe.write)
        #expect(tokens(poller).isEmpty)
    }

    @Test func aReusedDescriptorNumberReplacesTheOldRegistration() throws {
        let poller = try PollPoller()
        defer { poller.close() }
        let pipe = try Pipe()
        try poller.addConnection(pipe.read, token: 1)
        try poller.addConnection(pipe.read, token: 2)
        pipe.put(1)
        #expect(tokens(poller) == [2])
    }

    #if os(Linux)
    @Test func epollReportsAnEdgeOnce() throws {
        let poller = try EpollPoller()
        defer { poller.close() }
        let pipe = try Pipe()
        try poller.addConnection(pipe.read, token: 9)
        pipe.put(1)
        #expect(tokens(poller, timeout: 1000) == [9])
        #expect(tokens(poller).isEmpty)
        #expect(poller.isEdgeTriggered)
    }
    #endif

    @Test func theEnvironmentChoosesForAutomaticOnly() throws {
        #expect(try PollerKind.automatic.resolved { _ in "poll" } == .poll)
        #expect(try PollerKind.automatic.resolved { _ in "epoll" } == .epoll)
        #expect(try PollerKind.poll.resolved { _ in "epoll" } == .poll)
        #if os(Linux)
        #expect(try PollerKind.automatic.resolved { _ in nil } == .epoll)
        #else
        #expect(try PollerKind.automatic.resolved { _ in nil } == .poll)
        #expect(throws: PlatformError.self) { try PollerKind.epoll.makePoller() }
        #endif
    }

    @Test func anUnknownPollerInTheEnvironmentIsAnErrorNamingIt() {
        #expect(
            throws: PlatformError.invalidSetting(name: "PETKIT_POLLER", value: "kqueue", expected: "'epoll' or 'poll'")
        ) {
            try PollerKind.automatic.resolved { $0 == "PETKIT_POLLER" ? "kqueue" : nil }
        }
        let error = PlatformError.invalidSetting(name: "PETKIT_POLLER", value: "kqueue", expected: "'epoll' or 'poll'")
        #expect(error.description == "Invalid PETKIT_POLLER: expected 'epoll' or 'poll', found 'kqueue'")
    }
}
