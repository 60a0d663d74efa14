/// The start line and header fields of an HTTP request.
public struct HTTPRequestHead: Sendable, Hashable {
    /// The request method.
    public var method: HTTPMethod
    /// The request target exactly as sent: origin-form (`/a?b`), absolute-form
    /// (`http://host/a?b`), authority-form or asterisk-form (RFC 9112 §3.2).
    public var target: String
    /// The protocol version from the request line.
    public var version: HTTPVersion
    /// The header fields in the order received.
    public var headers: HTTPHeaders

    /// Creates a request head.
    public init(
        method: HTTPMethod, target: String, version: HTTPVersion = .http11, headers: HTTPHeaders = HTTPHeaders()
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
    }

    /// The origin-form part of the target: for an absolute-form target the scheme and
    /// authority are dropped, so `http://h/a?b` gives `/a?b`.
    public var originForm: Substring {
        let utf8 = target.utf8
        guard utf8.first != UInt8(ascii: "/") else { return Substring(target) }
        guard let schemeEnd = target.rangeOfUTF8("://") else { return Substring(target) }
        let afterAuthority = target[schemeEnd.upperBound...]
        if let slash = afterAuthority.firstIndex(where: { $0 == "/" || $0 == "?" }) {
            let rest = afterAuthority[slash...]
            return rest.first == "?" ? Substring("/" + rest) : rest
        }
        return "/"
    }

    /// The path of the target, still percent-encoded, without the query.
    public var path: Substring {
        let origin = originForm
        // Searched on the UTF-8 view: `?` is ASCII, and this runs for every request.
        if let question = origin.firstIndexOfUTF8(UInt8(ascii: "?")) {
            return origin[..<question]
        }
        return origin
    }

    /// The raw query of the target (after `?`), or nil when there is none.
    public var query: Substring? {
        let origin = originForm
        guard let question = origin.firstIndexOfUTF8(UInt8(ascii: "?")) else { return nil }
        return origin[origin.utf8.index(after: question)...]
    }

    /// Whether the connection stays open after this request: HTTP/1.1 unless
    /// `Connection: close`; HTTP/1.0 only with `Connection: keep-alive` (RFC 9112 §9.3).
    public var keepAlive: Bool {
        if version.major == 1 && version.minor == 0 {
            return headers.containsToken("keep-alive", inHeader: "Connection")
        }
        return !headers.containsToken("close", inHeader: "Connection")
    }
}
