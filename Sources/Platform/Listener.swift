import CSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Creating listening sockets: one per event loop with `SO_REUSEPORT`, all on one port, so
/// the kernel spreads new connections over the loops without a hand-off. Sockets are
/// non-blocking and close-on-exec (`SOCK_NONBLOCK` on Linux, `fcntl` elsewhere).
package enum Listener {
    /// Resolves `host` to a socket address for `port`.
    package static func resolve(host: String, port: Int) throws(PlatformError) -> sockaddr_storage {
        guard (0...65_535).contains(port) else { throw .invalidPort(port) }
        let name = host == "localhost" ? "127.0.0.1" : host
        let bare = name.hasPrefix("[") && name.hasSuffix("]") ? String(name.dropFirst().dropLast()) : name
        if let address = Socket.numericAddress(bare, port: port) { return address }
        var storage = sockaddr_storage()
        var hints = addrinfo()
        hints.ai_socktype = CSYSTEM_SOCK_STREAM
        hints.ai_flags = AI_PASSIVE
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(name, nil, &hints, &result) == 0, let first = result, let address = first.pointee.ai_addr
        else { throw .invalidHost(host) }
        defer { freeaddrinfo(result) }
        withUnsafeMutableBytes(of: &storage) { raw in
            raw.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(first.pointee.ai_addrlen)))
        }
        guard let text = SocketAddress.host(of: storage) else { throw .invalidHost(host) }
        return try resolve(host: text, port: port)
    }

    /// How a listening socket takes part in a `SO_REUSEPORT` group.
    package enum PortSharing {
        /// The first socket: binds exclusively, then opens the group.
        case open
        /// A further socket joining the group of the first.
        case join
    }

    /// Opens a non-blocking listening socket on `address` and returns it with its bound port.
    package static func open(
        _ address: sockaddr_storage, host: String, backlog: Int32, reusePort: PortSharing
    )
        throws(PlatformError) -> (descriptor: Int32, port: Int)
    {
        var address = address
        let family = Int32(address.ss_family)
        let descriptor = socket(family, CSYSTEM_SOCK_STREAM | CSYSTEM_SOCK_NONBLOCK | CSYSTEM_SOCK_CLOEXEC, 0)
        guard descriptor >= 0 else { throw .system(call: "socket", errno: errno) }
        #if !os(Linux)
        guard Descriptor.makeNonBlockingAndCloseOnExec(descriptor) else {
            let error = errno
            Descriptor.close(descriptor)
            throw .system(call: "fcntl", errno: error)
        }
        #endif
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        // The first socket binds without SO_REUSEPORT, so a port already taken by anyone
        // (another server of ours included) fails with EADDRINUSE instead of being shared;
        // it sets the option after binding, before listening, so the other loops' sockets
        // can join its group.
        if reusePort == .join {
            setsockopt(descriptor, SOL_SOCKET, CSYSTEM_SO_REUSEPORT, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        let length = socklen_t(family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        let requestedPort = port(of: address)
        guard bound == 0 else {
            let error = errno
            Descriptor.close(descriptor)
            throw .bindFailed(host: host, port: requestedPort, errno: error)
        }
        if reusePort == .open {
            setsockopt(descriptor, SOL_SOCKET, CSYSTEM_SO_REUSEPORT, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        guard listen(descriptor, backlog) == 0 else {
            let error = errno
            Descriptor.close(descriptor)
            throw .system(call: "listen", errno: error)
        }
        var local = sockaddr_storage()
        var localLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &localLength) }
        }
        return (descriptor, port(of: local))
    }

    /// The port of an address.
    package static func port(of address: sockaddr_storage) -> Int {
        SocketAddress.port(of: address)
    }

    /// The same address with another port.
    package static func withPort(_ address: sockaddr_storage, _ port: Int) -> sockaddr_storage {
        SocketAddress.withPort(address, port)
    }
}
