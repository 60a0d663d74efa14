#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading and writing the parts of a `sockaddr_storage` that hold an IPv4 or IPv6 address.
package enum SocketAddress {
    /// The port of an IPv4 or IPv6 address.
    package static func port(of address: sockaddr_storage) -> Int {
        var address = address
        // sin_port and sin6_port sit at the same offset, right after the length and family.
        return withUnsafeBytes(of: &address) { Int(UInt16(bigEndian: $0.load(fromByteOffset: 2, as: UInt16.self))) }
    }

    /// The same address with another port.
    package static func withPort(_ address: sockaddr_storage, _ port: Int) -> sockaddr_storage {
        var address = address
        withUnsafeMutableBytes(of: &address) { raw in
            raw.storeBytes(of: UInt16(port).bigEndian, toByteOffset: 2, as: UInt16.self)
        }
        return address
    }

    /// The address as text (`127.0.0.1`, `::1`), or nil for another family.
    package static func host(of address: sockaddr_storage) -> String? {
        var address = address
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = Int32(address.ss_family)
        let converted: Bool = withUnsafeMutableBytes(of: &address) { raw in
            switch family {
            case AF_INET:
                var bytes = raw.load(as: sockaddr_in.self).sin_addr
                return inet_ntop(AF_INET, &bytes, &text, socklen_t(text.count)) != nil
            case AF_INET6:
                var bytes = raw.load(as: sockaddr_in6.self).sin6_addr
                return inet_ntop(AF_INET6, &bytes, &text, socklen_t(text.count)) != nil
            default:
                return false
            }
        }
        guard converted else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
