import Platform
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The wake-up channel and the socket calls, on real descriptors.
@Suite struct WakeUpAndSocketTests {
    private func isReadable(_ descriptor: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 1
    }

    /// An eventfd and a pipe on Linux; a pipe twice elsewhere.
    @Test(arguments: WakeUpChannel.Mechanism.allCases)
    func aSignalMakesTheChannelReadableUntilDrained(mechanism: WakeUpChannel.Mechanism) throws {
        let channel = try WakeUpChannel(mechanism)
        defer { channel.close() }
        #expect(fcntl(channel.readDescriptor, F_GETFL, 0) & O_NONBLOCK != 0)
        #expect(fcntl(channel.writeDescriptor, F_GETFD, 0) & FD_CLOEXEC != 0)
        #expect(!isReadable(channel.readDescriptor))
        for _ in 0..<100 { channel.signal() }
        #expect(isReadable(channel.readDescriptor))
        channel.drain()
        #expect(!isReadable(channel.readDescriptor))
    }

    @Test func anAcceptedConnectionIsNonBlockingAndCloseOnExec() throws {
        let address = try Listener.resolve(host: "127.0.0.1", port: 0)
        let listener = try Listener.open(address, host: "127.0.0.1", backlog: 4, reusePort: .open)
        defer { Descriptor.close(listener.descriptor) }
        #expect(listener.port > 0)
        #expect(fcntl(listener.descriptor, F_GETFL, 0) & O_NONBLOCK != 0)

        var peer = sockaddr_storage()
        #expect(Socket.acceptConnection(listener.descriptor, peer: &peer) == -1)
        #expect(errno == EAGAIN || errno == EWOULDBLOCK)

        // The client is TestSupport's: the socket calls under test are the listener's.
        let client = try RawClient(port: listener.port)
        var waiting = pollfd(fd: listener.descriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&waiting, 1, 5000) == 1)
        let accepted = Socket.acceptConnection(listener.descriptor, peer: &peer)
        try #require(accepted >= 0)
        defer { Descriptor.close(accepted) }
        Socket.prepareConnection(accepted)
        #expect(fcntl(accepted, F_GETFL, 0) & O_NONBLOCK != 0)
        #expect(fcntl(accepted, F_GETFD, 0) & FD_CLOEXEC != 0)
        // Responses go out whole, never held back by Nagle's algorithm for the peer's ACK.
        var noDelay: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        #expect(getsockopt(accepted, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, &size) == 0)
        #expect(noDelay != 0)
        #expect(SocketAddress.host(of: peer) == "127.0.0.1")
        withExtendedLifetime(client) {}  // connected until the checks are done
    }

    @Test func unreadInputIsSeenWithoutBeingTakenAndAShutdownEndsTheStream() throws {
        let address = try Listener.resolve(host: "127.0.0.1", port: 0)
        let listener = try Listener.open(address, host: "127.0.0.1", backlog: 4, reusePort: .open)
        defer { Descriptor.close(listener.descriptor) }
        let client = try RawClient(port: listener.port)
        var waiting = pollfd(fd: listener.descriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&waiting, 1, 5000) == 1)
        var peer = sockaddr_storage()
        let accepted = Socket.acceptConnection(listener.descriptor, peer: &peer)
        try #require(accepted >= 0)
        defer { Descriptor.close(accepted) }
        #expect(!Socket.hasUnreadInput(accepted))

        try client.send("ping")
        var arriving = pollfd(fd: accepted, events: Int16(POLLIN), revents: 0)
        #expect(poll(&arriving, 1, 5000) == 1)
        #expect(Socket.hasUnreadInput(accepted))
        #expect(Socket.hasUnreadInput(accepted), "a peek takes nothing")
        var bytes = [UInt8](repeating: 0, count: 16)
        #expect(bytes.withUnsafeMutableBytes { Descriptor.read(accepted, $0.baseAddress, $0.count) } == 4)
        #expect(String(decoding: bytes.prefix(4), as: UTF8.self) == "ping")
        #expect(!Socket.hasUnreadInput(accepted))

        let pong = Array("pong".utf8)
        #expect(pong.withUnsafeBytes { Socket.sendOnce(accepted, $0) } == 4)
        #expect(Socket.shutdownWrite(accepted) == 0)
        #expect(try client.ending() == .closed(pong), "the client reads the end of the stream after the bytes")
        try client.send("still open")
        #expect(poll(&arriving, 1, 5000) == 1)
        #expect(Socket.hasUnreadInput(accepted), "only the sending side was shut")
    }

    @Test func badHostsAndPortsAreNamed() {
        #expect(throws: PlatformError.invalidPort(70_000)) { try Listener.resolve(host: "127.0.0.1", port: 70_000) }
        #expect(PlatformError.invalidPort(70_000).description == "Invalid port: expected 0...65535, found '70000'")
    }
}
