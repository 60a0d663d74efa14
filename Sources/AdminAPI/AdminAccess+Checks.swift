import HTTPCore
import HTTPHandlerKit
import MockEngine

/// How the admin API applies ``AdminAccess`` to a request.
extension AdminAccess {
    /// How a server lets other clients in, said to a client refused: it cannot know whether
    /// the server is petmock or a `StubServer` in a test, so both ways are named.
    static let lettingOthersIn =
        "an admin token lets others in (petmock serve --admin-token TOKEN, or AdminAccess.token in the server's configuration)"

    /// Why a request may not use the admin API, or nil when it may.
    func refusal(for request: HTTPServerRequest) -> (status: Int, message: String)? {
        if let crossOrigin = Self.crossOriginRefusal(for: request) { return crossOrigin }
        switch self {
        case .open:
            return nil
        case .loopbackOnly:
            guard Self.isLoopback(request.remoteAddress) else {
                return (403, "The admin API only answers loopback clients; " + Self.lettingOthersIn)
            }
            // A web page open in the developer's browser can make it send requests to 127.0.0.1:
            // across sites (a form POST needs no preflight) or, after DNS rebinding, under the
            // page's own host name. Either way a name that is not loopback shows, in Origin or
            // in the host the request is addressed to.
            let host = Self.addressedHost(of: request)
            if let host, !Self.isLoopbackName(host) {
                return (
                    403,
                    "The admin API only answers requests addressed to a loopback name, not '\(host)'; "
                        + Self.lettingOthersIn
                )
            }
            if let origin = request.headers.first(name: "Origin"), !Self.isLoopbackOrigin(origin) {
                return (403, "The admin API does not answer web pages from other origins ('\(origin)')")
            }
            return nil
        case .token(let token):
            let given = request.headers.first(name: "Authorization").flatMap { value -> Substring? in
                let parts = value.split(separator: " ", maxSplits: 1)
                guard parts.count == 2, parts[0].equalsIgnoringASCIICase("Bearer") else { return nil }
                return parts[1].trimmingASCIISpaces()
            }
            if let given, Self.constantTimeEquals(Array(given.utf8), Array(token.utf8)) { return nil }
            return (401, "The admin API needs 'Authorization: Bearer TOKEN' with the token petmock was started with")
        }
    }

    /// Whether a request may be served without the token: the dashboard's static files
    /// (`GET /__admin/ui`, its script and style sheet) hold no data, so a browser can load the
    /// page and ask for the token; every data call still needs it. Loopback-only access
    /// still applies its rules to them.
    func isPublicPage(_ request: HTTPServerRequest) -> Bool {
        guard case .token = self, request.method == .get || request.method == .head else { return false }
        return Dashboard.serves(request.path)
    }

    /// A state-changing request (any method but GET, HEAD and OPTIONS) a browser sends from a
    /// page of another origin: refused in every access mode, so a web page open in the
    /// developer's browser cannot reset or shut petmock down. Browsers say so in
    /// `Sec-Fetch-Site` (`same-origin` and `none`, typed by the user, pass); without it, an
    /// `Origin` must name the origin the request is addressed to. Tools send neither.
    static func crossOriginRefusal(for request: HTTPServerRequest) -> (status: Int, message: String)? {
        let method = request.method
        guard method != .get && method != .head && method != .options else { return nil }
        if let site = request.headers.first(name: "Sec-Fetch-Site")?.lowercased() {
            guard site == "same-origin" || site == "none" else {
                return (403, "The admin API does not take changes from web pages of other origins ('\(site)')")
            }
            return nil
        }
        if let origin = request.headers.first(name: "Origin") {
            let addressed = addressedAuthority(of: request)
            guard let schemeEnd = origin.firstRange(of: "://"), let addressed,
                origin[schemeEnd.upperBound...].lowercased() == addressed.lowercased()
            else {
                return (403, "The admin API does not take changes from web pages of other origins ('\(origin)')")
            }
        }
        return nil
    }

    /// The authority (`127.0.0.1:8080`) a request is addressed to: an absolute-form target's,
    /// else `Host`.
    static func addressedAuthority(of request: HTTPServerRequest) -> String? {
        let target = request.head.target
        if !target.hasPrefix("/"), let schemeEnd = target.firstRange(of: "://") {
            return String(target[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" })
        }
        return request.headers.first(name: "Host").map { String($0.trimmingASCIISpaces()) }
    }

    /// The host a request is addressed to: the authority of an absolute-form target, which
    /// wins over `Host` (RFC 9112 §3.2.2), else the `Host` header; without its port.
    static func addressedHost(of request: HTTPServerRequest) -> String? {
        let target = request.head.target
        if !target.hasPrefix("/"), let schemeEnd = target.firstRange(of: "://") {
            let authority = target[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            return hostPart(of: authority)
        }
        return request.headers.first(name: "Host").map { hostPart(of: $0) }
    }

    /// The host of an authority (`[::1]:8080` gives `::1`, `localhost:8080` gives `localhost`).
    static func hostPart<S: StringProtocol>(of authority: S) -> String {
        var text = Substring(authority.trimmingASCIISpaces())
        if let at = text.lastIndex(of: "@") { text = text[text.index(after: at)...] }
        if text.hasPrefix("[") {
            return String(text.dropFirst().prefix { $0 != "]" })
        }
        if let colon = text.lastIndex(of: ":"), text[text.index(after: colon)...].allSatisfy(\.isNumber) {
            text = text[..<colon]
        }
        return String(text)
    }

    /// Whether a host name or literal means this machine: `localhost` (and `*.localhost`,
    /// RFC 6761), `127.0.0.0/8`, `::1`.
    static func isLoopbackName(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        if name == "localhost" || name.hasSuffix(".localhost") || name == "::1" { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// Whether an `Origin` header names a loopback origin (`http://localhost:3000`); `null`
    /// (a sandboxed page or a file) does not.
    static func isLoopbackOrigin(_ origin: String) -> Bool {
        guard let schemeEnd = origin.firstRange(of: "://") else { return false }
        let authority = origin[schemeEnd.upperBound...].prefix { $0 != "/" }
        return isLoopbackName(hostPart(of: authority))
    }

    static func isLoopback(_ address: HTTPSocketAddress) -> Bool {
        let host = address.host
        return host.hasPrefix("127.") || host == "::1" || host.hasPrefix("::ffff:127.")
    }

    /// Compares without returning early, so timing does not reveal how much of a guess is right.
    static func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        var difference = UInt8(lhs.count == rhs.count ? 0 : 1)
        for index in 0..<max(lhs.count, rhs.count) {
            let a = index < lhs.count ? lhs[index] : 0
            let b = index < rhs.count ? rhs[index] : 0
            difference |= a ^ b
        }
        return difference == 0
    }
}
