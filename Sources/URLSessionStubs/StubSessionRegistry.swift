import Foundation
import Platform

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The hosts alive in this process, by token: how a ``StubURLProtocol``, which Foundation
/// creates itself, finds the host of the session it serves.
///
/// The table only maps a host's own random token to that host (held weakly); it decides no
/// answer. A token of a released host finds nothing, so its request fails rather than being
/// answered by another session.
enum StubSessionRegistry {
    /// The header field that carries a host's token in its configuration's `httpAdditionalHeaders`.
    static let tokenHeader = "X-Petkit-Stub-Session"

    private final class WeakHost: Sendable {
        weak let host: StubURLSessionHost?
        init(_ host: StubURLSessionHost) { self.host = host }
    }

    private struct Table {
        var byToken: [String: WeakHost] = [:]
        /// The same hosts by their own session's identity, checked against the session itself.
        var bySession: [UInt: WeakHost] = [:]
    }

    private static let table = Locked(Table())

    /// Registers `host` under its token and its session.
    static func register(_ host: StubURLSessionHost) {
        let entry = WeakHost(host)
        table.withLock {
            $0.byToken[host.token] = entry
            $0.bySession[address(of: host.session)] = entry
        }
    }

    /// Forgets a released host's token and session.
    static func remove(token: String, session: UInt) {
        table.withLock {
            $0.byToken[token] = nil
            $0.bySession[session] = nil
        }
    }

    /// The live host whose own session is `session`, or nil.
    static func host(for session: URLSession) -> StubURLSessionHost? {
        host(forSessionAddress: address(of: session))
    }

    /// The live host whose own session has this address, or nil.
    static func host(forSessionAddress address: UInt) -> StubURLSessionHost? {
        let host = table.withLock { $0.bySession[address]?.host }
        guard let host, Self.address(of: host.session) == address else { return nil }
        return host
    }

    /// A session's address, as the key of its host.
    static func address(of session: URLSession) -> UInt {
        UInt(bitPattern: ObjectIdentifier(session))
    }

    /// The live host with this token, or nil.
    static func host(for token: String) -> StubURLSessionHost? {
        table.withLock { $0.byToken[token]?.host }
    }
}
