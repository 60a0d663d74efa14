import Platform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP socket bound to a free port on 127.0.0.1, listening or not: the one place tests open
/// a loopback socket by hand (``ClosedPort``, ``ScriptedPeer``, hostile servers).
package enum LoopbackSocket {
    /// Binds a new socket (close-on-exec) to 127.0.0.1 port 0, and listens with `backlog`
    /// unless it is nil; the descriptor and the bound port. The caller closes the descriptor.
    package static func bind(listening backlog: Int32?) throws(RawClientError) -> (descriptor: Int32, port: Int) {
        let descriptor = Socket.openStream(family: AF_INET)
        guard descriptor >= 0 else { throw .system("socket", errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        var failed: String?
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                if systemBind(descriptor, pointer, length) != 0 {
                    failed = "bind"
                } else if let backlog, listen(descriptor, backlog) != 0 {
                    failed = "listen"
                } else if getsockname(descriptor, pointer, &length) != 0 {
                    failed = "getsockname"
                }
            }
        }
        if let failed {
            let code = errno
            close(descriptor)
            throw .system(failed, code)
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }
}

/// `bind(2)`, callable inside ``LoopbackSocket/bind(listening:)``, whose name hides it.
private func systemBind(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    bind(descriptor, address, length)
}
