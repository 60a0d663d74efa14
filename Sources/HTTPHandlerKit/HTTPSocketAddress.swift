#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The IP address and port of a socket's peer, kept as bytes; text is made only on demand.
public struct HTTPSocketAddress: Sendable, Hashable, CustomStringConvertible {
    /// IPv4 address bytes in network order, or IPv6 when ``isIPv6``.
    private var high: UInt64
    private var low: UInt64
    /// The port number.
    public let port: Int
    /// Whether the address is IPv6.
    public let isIPv6: Bool

    /// An address for tests and tools: IPv4 `a.b.c.d` given as four bytes.
    public init(ipv4 bytes: (UInt8, UInt8, UInt8, UInt8), port: Int) {
        high = 0
        low = UInt64(bytes.0) << 24 | UInt64(bytes.1) << 16 | UInt64(bytes.2) << 8 | UInt64(bytes.3)
        self.port = port
        isIPv6 = false
    }

    package init(storage: sockaddr_storage) {
        var storage = storage
        if Int32(storage.ss_family) == AF_INET6 {
            let address = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in6.self) }
            var bytes = address.sin6_addr
            let (first, second) = withUnsafeBytes(of: &bytes) { raw in
                (
                    raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                    raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                )
            }
            high = UInt64(bigEndian: first)
            low = UInt64(bigEndian: second)
            port = Int(UInt16(bigEndian: address.sin6_port))
            isIPv6 = true
        } else {
            let address = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in.self) }
            high = 0
            low = UInt64(UInt32(bigEndian: address.sin_addr.s_addr))
            port = Int(UInt16(bigEndian: address.sin_port))
            isIPv6 = false
        }
    }

    /// The address as text: `127.0.0.1` or `::1`.
    public var host: String {
        if !isIPv6 {
            return "\(low >> 24 & 0xFF).\(low >> 16 & 0xFF).\(low >> 8 & 0xFF).\(low & 0xFF)"
        }
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { raw in
            raw.storeBytes(of: high.bigEndian, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: low.bigEndian, toByteOffset: 8, as: UInt64.self)
        }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &address, &text, socklen_t(text.count)) != nil else { return "::" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `host:port`, with brackets around an IPv6 host.
    public var description: String {
        isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
