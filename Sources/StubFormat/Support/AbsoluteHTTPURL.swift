/// The one check of a URL petmock itself calls (a proxy stub's rendered base URL, a
/// webhook's URL): `http://` or `https://` (any case), naming a host, with no spaces or
/// control characters, so no stub or request can steer petmock to `file://` or another
/// scheme libcurl knows.
package enum AbsoluteHTTPURL {
    /// Why `url` cannot be called, the URL quoted (`'/callback', which is not http:// or
    /// https://`), or nil when it can; callers add what they expected.
    package static func problem(_ url: String) -> String? {
        let quoted = "'\(url.prefix(200))'"
        if url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
            return "\(quoted), which holds spaces or control characters"
        }
        let lowered = url.lowercased()
        let rest: Substring
        if lowered.hasPrefix("http://") {
            rest = url.dropFirst(7)
        } else if lowered.hasPrefix("https://") {
            rest = url.dropFirst(8)
        } else {
            return "\(quoted), which is not http:// or https:// (petmock calls no other scheme)"
        }
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        let host =
            hostAndPort.hasPrefix("[")
            ? hostAndPort : hostAndPort.split(separator: ":", omittingEmptySubsequences: false).first ?? ""
        if host.isEmpty { return "\(quoted), which names no host" }
        return nil
    }
}
