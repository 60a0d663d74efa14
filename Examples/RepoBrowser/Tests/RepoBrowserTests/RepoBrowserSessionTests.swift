import Foundation
import RepoBrowserAPI
import Testing
import URLSessionStubs  // the one import: StubSession, RequestPattern, mappings, the errors

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The browser's URLSession code paths against its own stubs, answered in process by
/// petmock's engine: each test has its own session, variant and journal, so the suite runs
/// in parallel as Swift Testing does by default.
@Suite struct RepoBrowserSessionTests {
    static func base() throws -> URL { try #require(URL(string: "https://api.repos.example/api")) }

    static func stubs(variant: String? = nil) throws -> StubSession {
        let stubs = try StubSession(stubsDirectory: RepoBrowserTests.stubs, variant: variant)
        #expect(stubs.loadProblems.isEmpty, "\(stubs.loadProblems)")
        return stubs
    }

    @Test func thePlainURLSessionLoaderReadsTheStubs() async throws {
        let stubs = try Self.stubs()
        let repositories = try await RepositoryList(baseURL: try Self.base(), session: stubs.session)
            .repositories(of: "octocat")
        #expect(repositories.map(\.fullName) == ["octocat/Spoon-Knife", "octocat/Hello-World"])
        #expect(repositories.map(\.owner.login) == ["octocat", "octocat"])
        try stubs.verify(.once, RequestPattern(method: .get, url: .url("/api/users/octocat/repos")))
    }

    @Test func theBrowserOverTheSessionCallsTheListThenEachDetail() async throws {
        let stubs = try Self.stubs()
        let rows = try await RepoBrowser(baseURL: try Self.base().absoluteString, session: stubs.session)
            .rows(for: "octocat")
        #expect(rows.map(\.name) == ["octocat/Spoon-Knife", "octocat/Hello-World"])
        try stubs.verify(.exactly(2), RequestPattern(method: .get, url: .urlPathPattern("/api/repositories/[0-9]+")))
    }

    /// Drift the app must notice, and drift it may ignore, one variant per test, all at once.
    @Test(arguments: [
        ("missing:full_name", false),
        ("rename:stargazers_count=stars", false),
        ("type:$[*].owner.login", false),
        ("stars-renamed", false),
        ("null:topics", true),
        ("missing:description", true),
        ("null:$[*].owner.avatar_url", true),
    ])
    func eachVariantIsSeenByItsOwnTestAlone(variant: String, decodes: Bool) async throws {
        let stubs = try Self.stubs(variant: variant)
        let list = RepositoryList(baseURL: try Self.base(), session: stubs.session)
        do {
            let repositories = try await list.repositories(of: "octocat")
            #expect(decodes, "'\(variant)' should have broken decoding")
            #expect(repositories.count == 2)
        } catch .decoding(let message) {
            #expect(!decodes, "'\(variant)' broke decoding: \(message)")
        } catch {
            Issue.record("'\(variant)': \(error)")
        }
        #expect(stubs.requests.count == 1)
        #expect(stubs.admin.variant?.description == variant)
    }

    @Test func anUnknownPathFailsTheLoadAndTheVerificationShowsTheNearMiss() async throws {
        let stubs = try Self.stubs()
        let list = RepositoryList(baseURL: try Self.base(), session: stubs.session)
        await #expect(throws: RepositoryList.LoadError.self) { try await list.repositories(of: "octocatz") }
        let error = try #require(throws: StubVerificationError.self) {
            try stubs.verify(.once, RequestPattern(method: .get, url: .url("/api/users/octocat/repos")))
        }
        #expect(error.description.contains("Request was not matched"))
        #expect(error.description.contains("/api/users/octocatz/repos"))
    }
}
