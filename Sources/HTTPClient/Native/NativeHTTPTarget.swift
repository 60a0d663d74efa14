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
package struct NativeHTTPTarget: Sendable {
    /// The address connected to.
    package let address: sockaddr_storage
    /// The connections this target may share: its host and port as written.
    package let key: String
    /// The `Host` field sent: the host, and the port unless it is 80.
    package let hostField: String
    /// The request target sent: the URL's path and query (`/` when it has no path).
    package let originForm: String

    /// Reads `url`; nil unless it is `http://` to an IPv4 or bracketed IPv6 address.
    package init?(url: String) {
        var url = url
        guard let parts = url.withUTF8({ Self.parse($0) }) else { return nil }
        (address, key, hostField, originForm) = parts
    }

    private init(address: sockaddr_storage, key: String, hostField: String, originForm: String) {
        self.address = address
        self.key = key
        self.hostField = hostField
        self.originForm = originForm
    }

    /// The target of `url` when it names this target's host and port as written (ASCII case
    /// aside): this address with the new request target, read with no address parsed; else
    /// nil (then `NativeHTTPTarget(url:)` reads it whole). A loop sending many requests to
    /// one upstream reads each URL this way.
    package func sameAuthority(_ url: String) -> NativeHTTPTarget? {
        var url = url
        let origin = url.withUTF8 { bytes -> String? in
            guard bytes.count >= Self.scheme.count + key.utf8.count, Self.startsWithScheme(bytes) else { return nil }
            var index = Self.scheme.count
            for byte in key.utf8 {
                guard Self.lowercased(bytes[index]) == byte else { return nil }
                index += 1
            }
            let rest = bytes[index...]
            guard let next = rest.first else { return "/" }
            guard next == UInt8(ascii: "/") || next == UInt8(ascii: "?") || next == UInt8(ascii: "#") else {
                return nil
            }
            return Self.originForm(rest)
        }
        guard let origin else { return nil }
        return NativeHTTPTarget(address: address, key: key, hostField: hostField, originForm: origin)
    }

    /// `http://`, compared ignoring ASCII case.
    private static let scheme: [UInt8] = Array("http://".utf8)

    private static func startsWithScheme(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= scheme.count && (0..<scheme.count).allSatisfy { lowercased(bytes[$0]) == scheme[$0] }
    }

    /// An ASCII upper-case letter in lower case; any other byte as it is.
    private static func lowercased(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    /// The request target of what follows a URL's authority: no fragment, `/` when it has no
    /// path; nil when a request line cannot hold it.
    private static func originForm(_ rest: Slice<UnsafeBufferPointer<UInt8>>) -> String? {
        var target = rest
        if let fragment = target.firstIndex(of: UInt8(ascii: "#")) { target = target[..<fragment] }
        // What a request line may hold: visible ASCII, no space (libcurl says what is wrong else).
        guard target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        let origin = String(decoding: target, as: UTF8.self)
        return origin.isEmpty || origin.first == "?" ? "/" + origin : origin
    }

    private static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>
    ) -> (sockaddr_storage, String, String, String)? {
        guard bytes.count > scheme.count, startsWithScheme(bytes) else { return nil }
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
        guard let origin = originForm(rest[authorityEnd...]) else { return nil }
        let hostText = String(
            decoding: authority.first == UInt8(ascii: "[") ? authority[...host.endIndex] : host, as: UTF8.self)
        let key = String(decoding: authority, as: UTF8.self).lowercased()
        return (address, key, port == 80 ? hostText : hostText + ":\(port)", origin)
    }
}
