/// The one check of a URL petmock itself calls (a proxy stub's rendered base URL, a
/// webhook's URL): `http://` or `https://` (any case), naming a host, with no spaces or
/// control characters, so no stub or request can steer petmock to `file://` or another
/// scheme libcurl knows.
package enum AbsoluteHTTPURL {
    /// Why `url` cannot be called, the URL quoted (`'/callback', which is not http:// or
    /// https://`), or nil when it can; callers add what they expected.
    package static func problem(_ url: String) -> String? {
        var quoted: String { "'\(url.prefix(200))'" }
        // Read as bytes, with no copy: a rendered URL is checked per call. A space, a control
        // character or DEL is one byte in UTF-8, and no byte of a longer character is below 0x80.
        let bytes = url.utf8
        if bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F }) {
            return "\(quoted), which holds spaces or control characters"
        }
        let scheme: Int
        if startsCaseInsensitively(bytes, with: "http://") {
            scheme = 7
        } else if startsCaseInsensitively(bytes, with: "https://") {
            scheme = 8
        } else {
            return "\(quoted), which is not http:// or https:// (petmock calls no other scheme)"
        }
        let rest = bytes.dropFirst(scheme)
        let authority = rest.prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        // The host and port follow the user information, if any (up to the last `@`).
        let hostAndPort =
            authority.lastIndex(of: UInt8(ascii: "@")).map { authority[authority.index(after: $0)...] }
            ?? authority
        let host =
            hostAndPort.first == UInt8(ascii: "[") ? hostAndPort : hostAndPort.prefix { $0 != UInt8(ascii: ":") }
        if host.isEmpty { return "\(quoted), which names no host" }
        return nil
    }

    /// Whether `bytes` starts with `prefix` (lowercase ASCII), ASCII letters compared without case.
    private static func startsCaseInsensitively(_ bytes: String.UTF8View, with prefix: StaticString) -> Bool {
        var index = bytes.startIndex
        for offset in 0..<prefix.utf8CodeUnitCount {
            guard index != bytes.endIndex else { return false }
            let byte = bytes[index]
            let lowered = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
            guard lowered == prefix.utf8Start[offset] else { return false }
            index = bytes.index(after: index)
        }
        return true
    }
}
