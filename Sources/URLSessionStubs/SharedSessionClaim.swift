import Foundation
import Platform

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension StubURLSessionHost {
    /// Makes this host answer `URLSession.shared`'s HTTP(S) requests, process-wide, until the
    /// claim is released: for code under test that uses the shared session and takes no
    /// session of its own.
    ///
    /// It is one answer for the whole process: every `URLSession.shared` request made while the
    /// claim holds, by any test, reaches this host. Tests that claim should be serialized
    /// with each other and with any test that uses the shared session for real; a second
    /// claim while one holds throws ``SharedSessionClaimError/alreadyClaimed(owner:)`` rather
    /// than mixing answers. Release the claim (`defer { claim.release() }`); a claim never
    /// released keeps its host, and the shared session, until the process ends.
    ///
    /// ```swift
    /// let claim = try host.claimSharedSession()
    /// defer { claim.release() }
    /// let (data, _) = try await URLSession.shared.data(from: url)   // answered by host
    /// ```
    ///
    /// It registers a URLProtocol class with `URLProtocol.registerClass(_:)`. FoundationNetworking
    /// makes `URLSession.shared` with the classes registered at that time, after its own HTTP
    /// protocol unless registered before the process's first `URLSession`, so there this throws
    /// ``SharedSessionClaimError/unreachable(reason:)`` when the shared session would not
    /// consult it (checked through the shared session's public `configuration`).
    ///
    /// - Parameters:
    ///   - fileID: Where the claim is made, to name the owner in another claim's error.
    ///   - line: The line of the claim, likewise.
    public func claimSharedSession(
        fileID: String = #fileID, line: Int = #line
    ) throws(SharedSessionClaimError) -> SharedSessionClaim {
        try SharedSessionClaims.claim(
            SharedSessionClaim(host: self, owner: "the StubURLSessionHost claimed at \(fileID):\(line)"))
    }
}

/// A host's hold on `URLSession.shared` (``StubURLSessionHost/claimSharedSession(fileID:line:)``),
/// until ``release()``.
public final class SharedSessionClaim: Sendable {
    /// The host answering the shared session's requests.
    public let host: StubURLSessionHost
    /// Who holds it, as another claim's error names it: `the StubURLSessionHost claimed at
    /// MyTests/LoaderTests.swift:12`.
    public let owner: String

    init(host: StubURLSessionHost, owner: String) {
        self.host = host
        self.owner = owner
    }

    /// Ends the claim: `URLSession.shared` is no longer answered by the host, and another
    /// claim may be made. Releasing twice, or after another claim took over, does nothing.
    public func release() {
        SharedSessionClaims.release(self)
    }
}

/// Why ``StubURLSessionHost/claimSharedSession(fileID:line:)`` refused.
public enum SharedSessionClaimError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Another claim holds the shared session; `owner` says whose
    /// (``SharedSessionClaim/owner``).
    case alreadyClaimed(owner: String)
    /// The shared session would not consult the registered class on this platform.
    case unreachable(reason: String)

    public var description: String {
        switch self {
        case .alreadyClaimed(let owner):
            "URLSession.shared is already answered by \(owner); release that claim first "
                + "(one owner at a time, so that no request gets another test's answer)"
        case .unreachable(let reason):
            "URLSession.shared cannot be answered here: \(reason). Give the code under test the "
                + "host's session (or a session made from host.configuration) instead"
        }
    }
}

/// The one claim on `URLSession.shared`, and the registration of ``SharedSessionURLProtocol``.
enum SharedSessionClaims {
    /// The claim holding now, read by the protocol class (from Foundation's calls).
    private static let current = Locked<SharedSessionClaim?>(nil)
    /// Held across a claim or release, with the calls to Foundation they make; never taken by
    /// the protocol class, which Foundation may call holding its own lock.
    private static let changes = Lock()

    /// The host of the claim holding now, or nil.
    static var host: StubURLSessionHost? { current.withLock { $0?.host } }

    static func claim(_ claim: SharedSessionClaim) throws(SharedSessionClaimError) -> SharedSessionClaim {
        try changes.withLock { () throws(SharedSessionClaimError) -> SharedSessionClaim in
            if let owner = current.withLock({ $0?.owner }) { throw .alreadyClaimed(owner: owner) }
            current.withLock { $0 = claim }
            _ = URLProtocol.registerClass(SharedSessionURLProtocol.self)
            #if canImport(FoundationNetworking)
            if !sharedSessionConsultsTheClaim() {
                URLProtocol.unregisterClass(SharedSessionURLProtocol.self)
                current.withLock { $0 = nil }
                throw .unreachable(
                    reason: "FoundationNetworking made URLSession.shared with the URLProtocol classes registered "
                        + "when it was first used, its own HTTP protocol before any class registered after the "
                        + "process's first URLSession was made; a claim reaches it only when made before any "
                        + "URLSession in the process")
            }
            #endif
            return claim
        }
    }

    static func release(_ claim: SharedSessionClaim) {
        changes.withLock {
            let holding = current.withLock { current -> Bool in
                guard current === claim else { return false }
                current = nil
                return true
            }
            if holding { URLProtocol.unregisterClass(SharedSessionURLProtocol.self) }
        }
    }

    #if canImport(FoundationNetworking)
    /// Whether the shared session's first class that takes an HTTP request is the claim's
    /// (FoundationNetworking picks the first of its configuration's classes that can take it).
    private static func sharedSessionConsultsTheClaim() -> Bool {
        guard let url = URL(string: "http://shared-session-claim.invalid/") else { return false }
        let request = URLRequest(url: url)
        let classes = URLSession.shared.configuration.protocolClasses ?? []
        let first: AnyClass? = classes.first { ($0 as? URLProtocol.Type)?.canInit(with: request) ?? false }
        return first.map { ObjectIdentifier($0) == ObjectIdentifier(SharedSessionURLProtocol.self) } ?? false
    }
    #endif
}
