import CSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Socket {
    /// Opens a non-blocking, close-on-exec TCP socket for `address` (IPv4 or IPv6) with
    /// `TCP_NODELAY` set, and starts connecting it. Returns the descriptor and 0 when the
    /// connection is up already, the descriptor and `EINPROGRESS` when it is under way (the
    /// socket turns writable when it is done: see ``pendingError(_:)``), or -1 and the `errno`
    /// of the failure (nothing is left open then).
    package static func startConnecting(to address: sockaddr_storage) -> (descriptor: Int32, error: Int32) {
        let family = Int32(address.ss_family)
        let descriptor = socket(family, CSYSTEM_SOCK_STREAM | CSYSTEM_SOCK_NONBLOCK | CSYSTEM_SOCK_CLOEXEC, 0)
        guard descriptor >= 0 else { return (-1, errno) }
        #if !os(Linux)
        guard Descriptor.makeNonBlockingAndCloseOnExec(descriptor) else {
            let error = errno
            Descriptor.close(descriptor)
            return (-1, error)
        }
        #endif
        prepareConnection(descriptor)
        let length = socklen_t(family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        var address = address
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, length) }
        }
        if result == 0 { return (descriptor, 0) }
        let error = errno
        if error == EINPROGRESS || error == EINTR { return (descriptor, EINPROGRESS) }
        Descriptor.close(descriptor)
        return (-1, error)
    }

    /// The error a connect that was under way ended with (`SO_ERROR`): 0 when it is up.
    package static func pendingError(_ descriptor: Int32) -> Int32 {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return errno }
        return error
    }

    /// An IPv4 or IPv6 address written as digits (`127.0.0.1`, `::1`, no brackets) with
    /// `port`, or nil when `text` is neither.
    package static func numericAddress(_ text: String, port: Int) -> sockaddr_storage? {
        // An address is short: written on the stack with its NUL, not through a C string copy.
        guard text.utf8.count < 64 else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            var end = 0
            for byte in text.utf8 {
                buffer[end] = CChar(bitPattern: byte)
                end += 1
            }
            buffer[end] = 0
            guard let start = buffer.baseAddress else { return nil }
            return numericAddress(cString: start, port: port)
        }
    }

    private static func numericAddress(cString text: UnsafePointer<CChar>, port: Int) -> sockaddr_storage? {
        var ipv4 = sockaddr_in()
        if inet_pton(AF_INET, text, &ipv4.sin_addr) == 1 {
            ipv4.sin_family = sa_family_t(AF_INET)
            #if canImport(Darwin)
            ipv4.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            #endif
            return storage(of: ipv4, port: port)
        }
        var ipv6 = sockaddr_in6()
        if inet_pton(AF_INET6, text, &ipv6.sin6_addr) == 1 {
            ipv6.sin6_family = sa_family_t(AF_INET6)
            #if canImport(Darwin)
            ipv6.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
            #endif
            return storage(of: ipv6, port: port)
        }
        return nil
    }

    /// An IPv4 or IPv6 address in a `sockaddr_storage`, with `port`.
    private static func storage<Address>(of address: Address, port: Int) -> sockaddr_storage {
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: Address.self) }
        return SocketAddress.withPort(storage, port)
    }

    /// The system's message for an `errno` value.
    package static func errorMessage(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
