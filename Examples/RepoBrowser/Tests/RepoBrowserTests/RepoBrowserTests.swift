import ContractKit
import EndpointKit
import Foundation
import HTTPClient
import RepoBrowserAPI
import RepoBrowserContract
import StubServerKit
import Testing

/// The repositories browser against petmock's engine in process, with its own stubs: the
/// client, its contract, and drift (generated and named variants) seen by both.
@Suite struct RepoBrowserTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let stubs = root.appendingPathComponent("Stubs").path

    /// A stub server on a free port serving the browser's stubs; stopped by the caller.
    static func server() throws -> StubServer {
        let server = try StubServer(stubsDirectory: stubs)
        #expect(server.loadProblems.isEmpty, "\(server.loadProblems)")
        try server.start()
        return server
    }

    static func verify(_ server: StubServer) async throws -> VerificationReport {
        let (contract, models) = try RepoBrowserContract.contract.make()
        let verifier = LiveVerifier(contract: contract, models: models, transport: CurlTransport())
        return await verifier.verify(baseURL: server.baseURL + "/api", contractName: "built-in")
    }

    @Test func theCheckedInContractIsWhatGenerateWrites() throws {
        let (contract, _) = try RepoBrowserContract.contract.make()
        let file = Self.root.appendingPathComponent(RepoBrowserContract.contract.defaultOutput)
        #expect(
            try String(contentsOf: file, encoding: .utf8) == OpenAPIWriter().text(contract),
            "stale: run 'swift run repo-contract generate' in Examples/RepoBrowser")
        #expect(contract.operations.map(\.name) == ["GET /users/{login}/repos", "GET /repositories/{id}"])
    }

    @Test func theBrowserShowsEveryRepositoryMostStarredFirst() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let rows = try await RepoBrowser(baseURL: server.baseURL + "/api").rows(for: "octocat")
        #expect(rows.map(\.name) == ["octocat/Spoon-Knife", "octocat/Hello-World"])
        #expect(rows.map(\.topics) == [[], ["hello", "world"]])
    }

    @Test func aHealthyAPIHasNoBreakingFindings() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let report = try await Self.verify(server)
        #expect(report.outcome(strict: false) == .passed, "\(report.findings.map(\.message))")
        #expect(report.summary.breaking == 0 && report.errors.isEmpty)
        #expect(report.operations == ["GET /users/{login}/repos", "GET /repositories/{id}"])
        #expect(report.decodeCheck == .full)
    }

    @Test func aGeneratedVariantBreaksTheClientAndTheContractNamesTheSwiftProperty() async throws {
        let server = try Self.server()
        defer { server.stop() }
        try server.admin.setVariant("missing:stargazers_count")
        await #expect {
            _ = try await RepoBrowser(baseURL: server.baseURL + "/api").rows(for: "octocat")
        } throws: { error in
            // The client's decoder names the coding path as the model sees it (after convertFromSnakeCase).
            guard case .decoding(let failure) = error as? EndpointError else { return false }
            return failure.path == "[0].stargazersCount"
        }
        let report = try await Self.verify(server)
        #expect(report.outcome(strict: false) == .failed)
        let missing = report.findings.filter { $0.id == .requiredPropertyMissing }
        #expect(Set(missing.map(\.operation)) == ["GET /users/{login}/repos", "GET /repositories/{id}"])
        #expect(missing.allSatisfy { $0.swift == "Repository.stargazersCount: Int" }, "\(missing.map(\.swift))")
    }

    @Test func theNamedDriftShowsARenameAndADateTypeChange() async throws {
        let server = try Self.server()
        defer { server.stop() }
        try server.admin.setVariant("stars-renamed")
        let report = try await Self.verify(server)
        let kinds = Set(report.findings.map { "\($0.id.rawValue) \($0.swift ?? "")" })
        #expect(kinds.contains("response-property-probably-renamed Repository.stargazersCount: Int"), "\(kinds)")
        #expect(kinds.contains("response-property-type-changed Repository.createdAt: Date"), "\(kinds)")
    }

    @Test func aVariantThatNamesNoFieldIsRefusedNotServedUnchanged() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let transport = CurlTransport()
        let typo = try await transport.send(
            HTTPClientRequest(
                method: .get, url: server.baseURL + "/api/users/octocat/repos",
                headers: ["X-Petmock-Variant": "missing:stargazer_count"]))
        #expect(typo.status.code == 400)
        #expect(String(decoding: typo.body, as: UTF8.self).contains("stargazers_count"), "the known fields are listed")
        let located = try await transport.send(
            HTTPClientRequest(
                method: .get, url: server.baseURL + "/api/users/octocat/repos",
                headers: ["X-Petmock-Variant": "type:$[0].owner.id"]))
        #expect(located.status.code == 200)
        #expect(String(decoding: located.body, as: UTF8.self).contains(#""id":"1""#))
    }
}
