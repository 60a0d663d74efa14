import Foundation
import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import TestSupport
import Testing
import URLSessionStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `URLSession.shared` answered by one host at a time, on request. Claims are process-wide:
/// the suite is serialized and its URLs name a host no other test uses. On Linux the whole
/// cycle runs in a process of its own (`urlsession-stubs-shared-probe`), made before any
/// URLSession; on Darwin it runs here.
@Suite(.serialized) struct SharedSessionTests {
    static let url = "http://shared-claim.example/x"

    static func host(answering text: String) -> StubURLSessionHost {
        StubURLSessionHost(handler: HTTPClosureHandler { _ in .response(HTTPResponse(text: text)) })
    }

    #if canImport(FoundationNetworking)
    /// Claimed before the process's first URLSession, as FoundationNetworking requires:
    /// answered, a second owner refused with the first one named, released, claimed again by
    /// another host.
    @Test func aClaimAnswersTheSharedSessionInAFreshProcess() async throws {
        let result = try await ToolProcess.run("urlsession-stubs-shared-probe", [], timeout: 60)
        #expect(result.status == 0, "stdout:\n\(result.stdout)\nstderr:\n\(result.stderr)")
        #expect(result.stdout.contains("claimed: URLSession.shared answered by the first host"))
        #expect(
            result.stdout.contains(
                "refused: URLSession.shared is already answered by the StubURLSessionHost claimed at "
                    + "urlsession_stubs_shared_probe/main.swift:"))
        #expect(result.stdout.contains("released and claimed again: URLSession.shared answered by the second host"))
    }

    /// In a process that has made a URLSession, FoundationNetworking's shared session consults
    /// its own HTTP protocol first: the claim says so rather than leave requests to the network,
    /// and holds nothing afterwards.
    @Test func aClaimAfterTheFirstSessionIsRefusedAsUnreachable() throws {
        let host = Self.host(answering: "late")
        _ = host.session
        // Twice: a refused claim leaves no owner behind.
        for _ in 0..<2 {
            let error = #expect(throws: SharedSessionClaimError.self) {
                _ = try host.claimSharedSession()
            }
            guard case .unreachable(let reason) = error else {
                Issue.record("expected .unreachable, got \(String(describing: error))")
                return
            }
            #expect(reason.contains("before any URLSession"))
        }
    }
    #else
    /// The whole cycle, in this process: Darwin consults registered classes for the shared
    /// session, most recent first (unverified until the macOS CI job runs it).
    @Test func aClaimAnswersTheSharedSessionUntilReleased() async throws {
        let first = Self.host(answering: "first")
        let second = Self.host(answering: "second")
        let claim = try first.claimSharedSession()
        defer { claim.release() }
        #expect(try await fetch(URLSession.shared, Self.url).text == "first")
        #expect(throws: SharedSessionClaimError.alreadyClaimed(owner: claim.owner)) {
            _ = try second.claimSharedSession()
        }
        #expect(claim.owner.contains("SharedSessionTests.swift:"))
        claim.release()
        let again = try second.claimSharedSession()
        defer { again.release() }
        #expect(try await fetch(URLSession.shared, Self.url).text == "second")
    }
    #endif
}
