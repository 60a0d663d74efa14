import Platform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback port that refuses every connection for as long as this object lives: a socket
/// bound to it that never listens. A port merely freed after use (a server started, then
/// stopped) can be taken by any server another test starts meanwhile, and the "refused"
/// connection then reaches it instead.
///
/// ```swift
/// let down = try ClosedPort()
/// defer { _ = down }   // keep it bound until the end of the test
/// let url = "http://127.0.0.1:\(down.port)/api"
/// ```
public final class ClosedPort: Sendable {
    /// The port number.
    public let port: Int
    private let descriptor: Int32

    /// Binds a socket to a free loopback port, without listening on it.
    public init() throws(ClosedPortError) {
        // `self.descriptor` is set only on success: deinit, which closes it, also runs when an
        // init throws after every stored property is set.
        let descriptor = Socket.openStream(family: AF_INET)
        guard descriptor >= 0 else { throw ClosedPortError(call: "socket", code: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            close(descriptor)
            throw ClosedPortError(call: "bind", code: code)
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(descriptor)
    }
}

/// Why a ``ClosedPort`` could not be made.
public struct ClosedPortError: Error, CustomStringConvertible {
    /// The failing call.
    public let call: String
    /// Its `errno`.
    public let code: Int32

    public var description: String { "\(call) failed: errno \(code)" }
}
