import APISchema
import ContractKit
import Foundation
import HTTPClient
import HTTPCore
import JSONKit
import Platform
import Testing

/// OpenAPI 3.1 makes an operation's `responses` optional: such a document loads, `verify` does
/// not call the operation (a note says why) and `diff` compares what there is; 3.0 still
/// requires them.
@Suite struct OpenAPIOptionalResponsesTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/oai")

    /// The OpenAPI Initiative's `non-oauth-scopes` example: `GET /users` with no `responses`.
    static func nonOAuthScopes() throws -> Contract {
        try OpenAPIReader().read(file: folder.appendingPathComponent("non-oauth-scopes.yaml").path)
    }

    static func document(version: String, responses: String?) -> [UInt8] {
        let responses = responses.map { #", "responses": \#($0)"# } ?? ""
        return Array(
            #"""
            {"openapi": "\#(version)", "info": {"title": "T", "version": "1"},
             "paths": {"/users": {"get": {"operationId": "listUsers"\#(responses)}}}}
            """#.utf8)
    }

    static let documented =
        #"{"200": {"description": "users", "content": {"application/json": {"schema": {"type": "array"}}}}}"#

    @Test func aThreeOneOperationWithoutResponsesLoads() throws {
        let contract = try Self.nonOAuthScopes()
        let operation = try #require(contract.operation(named: "GET /users"))
        #expect(operation.responses.isEmpty)
    }

    @Test func verifyDoesNotCallAnOperationWithoutResponsesAndSaysWhy() async throws {
        let calls = Locked(0)
        let transport = ClosureTransport { _ throws(HTTPClientError) in
            calls.withLock { $0 += 1 }
            return HTTPClientResponse(status: HTTPStatus(code: 200), headers: [:], body: [])
        }
        let verifier = LiveVerifier(contract: try Self.nonOAuthScopes(), transport: transport)
        let report = await verifier.verify(baseURL: "http://api.test", contractName: "non-oauth-scopes.yaml")
        #expect(calls.withLock { $0 } == 0)
        #expect(report.findings.isEmpty)
        #expect(report.errors.isEmpty)
        #expect(report.operations.isEmpty)
        #expect(
            report.notes.contains("GET /users: not called (the document gives it no responses to check against)"),
            "\(report.notes)")
        #expect(report.outcome(strict: true) == .passed)
    }

    @Test func diffComparesAnOperationWithoutResponses() throws {
        let reader = OpenAPIReader()
        let bare = try reader.read(Self.document(version: "3.1.0", responses: nil), source: "old.json")
        let described = try reader.read(Self.document(version: "3.1.0", responses: Self.documented), source: "new.json")
        #expect(ContractDiff().changes(old: bare, new: bare).isEmpty)
        let added = ContractDiff().changes(old: bare, new: described)
        #expect(added.map(\.id) == [.responseStatusAdded])
        #expect(added.allSatisfy { $0.level == .info })
        let removed = ContractDiff().changes(old: described, new: bare)
        #expect(removed.map(\.id) == [.responseStatusRemoved])
    }

    @Test func aThreeZeroOperationStillNeedsResponses() {
        #expect {
            try OpenAPIReader().read(Self.document(version: "3.0.3", responses: nil), source: "t.json")
        } throws: { error in
            guard case ContractError.invalidContract(_, let path, let expected, _) = error else { return false }
            return path == "$.paths['/users'].get.responses" && expected.contains("responses")
        }
    }

    /// A stub mapping of an operation without responses is a note, not a finding.
    @Test func aStubOfAnOperationWithoutResponsesIsANote() throws {
        let directory = try StubVerifierTests().folder([
            "users.json":
                #"{"request": {"method": "GET", "urlPath": "/users"}, "response": {"status": 200, "jsonBody": []}}"#
        ])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let report = StubVerifier(contract: try Self.nonOAuthScopes()).verify(directory: directory, contractName: "n")
        #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        #expect(report.operations.isEmpty)
        #expect(
            report.notes.contains {
                $0.hasSuffix("skipped, the document gives GET /users no responses to check against")
            }, "\(report.notes)")
    }
}
