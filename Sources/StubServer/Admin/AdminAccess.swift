import HTTPServer

/// Who may use the `/__admin` API, which listens on the stub port.
public enum AdminAccess: Sendable, Hashable {
    /// Only clients on the loopback interface (the default).
    case loopbackOnly
    /// Any client presenting `Authorization: Bearer TOKEN`.
    case token(String)
    /// Anyone (for a container whose port only trusted tests reach).
    case open

    /// Why a request may not use the admin API, or nil when it may.
    func refusal(for request: HTTPServerRequest) -> (status: Int, message: String)? {
        switch self {
        case .open:
            return nil
        case .loopbackOnly:
            if Self.isLoopback(request.remoteAddress) { return nil }
            return (
                403, "The admin API only answers loopback clients; start petmock with --admin-token to allow others"
            )
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
