import HTTPCore
import Platform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a request to a plain `http://` URL at a numeric address goes, worked out with no name
/// lookup: what ``LoopHTTPClient`` can send without libcurl. Any other URL (`https`, a host
/// name, user info, bytes an HTTP request target cannot hold) gives nil, and is libcurl's.
///
/// ```swift
/// NativeHTTPTarget(url: "http://127.0.0.1:8081/api/pets?page=2")  // connects to 127.0.0.1:8081, sends /api/pets?page=2
/// NativeHTTPTarget(url: "https://api.example.com/")                // nil
/// ```
public struct NativeHTTPTarget: Sendable {
    /// The address connected to.
    public let address: sockaddr_storage
    /// The connections this target may share: its host and port as written.
    public let key: String
    /// The `Host` field sent: the host, and the port unless it is 80.
    public let hostField: String
    /// The request target sent: the URL's path and query (`/` when it has no path).
    public let originForm: String

    /// Reads `url`; nil unless it is `http://` to an IPv4 or bracketed IPv6 address.
    public init?(url: String) {
        var url = url
        guard let parts = url.withUTF8({ Self.parse($0) }) else { return nil }
        (address, key, hostField, originForm) = parts
    }

    private static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>
    ) -> (sockaddr_storage, String, String, String)? {
        let scheme: [UInt8] = [0x68, 0x74, 0x74, 0x70, 0x3A, 0x2F, 0x2F]  // http://
        guard bytes.count > scheme.count else { return nil }
        for index in 0..<scheme.count where bytes[index] | 0x20 != scheme[index] && bytes[index] != scheme[index] {
            return nil
        }
        let rest = bytes[scheme.count...]
        let authorityEnd =
            rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard !authority.isEmpty, !authority.contains(UInt8(ascii: "@")) else { return nil }
        var host = authority
        var portText = authority[authority.endIndex...]
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            host = authority[(authority.startIndex + 1)..<close]
            let after = authority[(close + 1)...]
            if !after.isEmpty {
                guard after.first == UInt8(ascii: ":") else { return nil }
                portText = after.dropFirst()
            }
            guard host.contains(UInt8(ascii: ":")) else { return nil }
        } else {
            if let colon = authority.firstIndex(of: UInt8(ascii: ":")) {
                host = authority[..<colon]
                portText = authority[(colon + 1)...]
            }
            guard !host.contains(UInt8(ascii: ":")) else { return nil }
        }
        var port = 80
        if !portText.isEmpty {
            guard portText.count <= 5, portText.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            port = portText.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            guard (1...65535).contains(port) else { return nil }
        }
        guard let address = Socket.numericAddress(String(decoding: host, as: UTF8.self), port: port) else { return nil }
        var target = rest[authorityEnd...]
        if let fragment = target.firstIndex(of: UInt8(ascii: "#")) { target = target[..<fragment] }
        // What a request line may hold: visible ASCII, no space (libcurl says what is wrong else).
        guard target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        var origin = String(decoding: target, as: UTF8.self)
        if origin.isEmpty || origin.first == "?" { origin = "/" + origin }
        let hostText = String(
            decoding: authority.first == UInt8(ascii: "[") ? authority[...host.endIndex] : host, as: UTF8.self)
        let key = String(decoding: authority, as: UTF8.self).lowercased()
        return (address, key, port == 80 ? hostText : hostText + ":\(port)", origin)
    }
}
