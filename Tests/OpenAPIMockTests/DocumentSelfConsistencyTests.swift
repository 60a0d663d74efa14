import APISchema
import ContractKit
import Foundation
import HTTPClient
import HTTPCore
import MockEngine
import OpenAPIMock
import TestSupport
import Testing

/// A document served by petmock, verified live by petcontract against the same document: no
/// breaking finding; with a server-wide drift of a required field, that drift is found. Every
/// corpus document (3.0 and 3.1, JSON and YAML) and GitHub's whole REST description, through an
/// in-process handler (the engine `serve --openapi` runs, with no socket).
@Suite struct DocumentSelfConsistencyTests {
    /// A document and the drift of a required response field its verify exercises (nil for a
    /// document with no response schema to drift).
    struct Case: Sendable, CustomTestStringConvertible {
        let document: String
        let drift: String?
        let operation: String?

        var testDescription: String { document }
    }

    static let cases: [Case] = [
        Case(document: "oai/petstore.json", drift: "missing:name", operation: "GET /pets"),
        Case(document: "oai/petstore.yaml", drift: "missing:name", operation: "GET /pets"),
        Case(document: "oai/petstore-expanded.json", drift: "missing:name", operation: "GET /pets/{id}"),
        Case(document: "oai/petstore-expanded.yaml", drift: "missing:name", operation: "GET /pets/{id}"),
        Case(document: "oai/api-with-examples.json", drift: nil, operation: nil),
        Case(document: "oai/api-with-examples.yaml", drift: nil, operation: nil),
        Case(document: "oai/callback-example.json", drift: "missing:subscriptionId", operation: "POST /streams"),
        Case(document: "oai/callback-example.yaml", drift: "missing:subscriptionId", operation: "POST /streams"),
        Case(document: "oai/link-example.json", drift: "type:uuid", operation: "GET /2.0/users/{username}"),
        Case(document: "oai/link-example.yaml", drift: "type:uuid", operation: "GET /2.0/users/{username}"),
        Case(document: "oai/tictactoe.json", drift: "type:winner", operation: "GET /board"),
        Case(document: "oai/tictactoe.yaml", drift: "type:winner", operation: "GET /board"),
        Case(document: "oai/uspto.json", drift: "type:total", operation: "GET /"),
        Case(document: "oai/uspto.yaml", drift: "type:total", operation: "GET /"),
        Case(document: "oai/github-slice.json", drift: "missing:login", operation: "GET /users/{username}"),
        Case(document: "oai/github-slice.yaml", drift: "missing:login", operation: "GET /users/{username}"),
        Case(document: "oai/non-oauth-scopes.yaml", drift: nil, operation: nil),
        Case(document: "petstore.yaml", drift: "missing:name", operation: "GET /api/pets"),
    ]

    /// A valid value for every parameter a call needs, as a user gives with `--param`: made
    /// from its schema by the generator petmock answers with (the responder checks requests).
    static func parameterValues(_ contract: Contract) -> [ParameterValue] {
        contract.operations.flatMap { operation in
            operation.parameters.filter { $0.required || $0.location == .path }.map { parameter in
                let schema = contract.resolve(parameter.schema) ?? parameter.schema
                let seed = GeneratedBody.Seed(key: "\(operation.name) \(parameter.name)")
                var value = "7"
                switch GeneratedBody.make(for: schema, in: contract, seed: seed) {
                case .success(.string(let text)): value = text
                case .success(.int(let number)): value = String(number)
                case .success(.number(let number)): value = number.text
                case .success(.bool(let flag)): value = String(flag)
                default: break
                }
                return ParameterValue(operation: operation.name, name: parameter.name, value: value)
            }
        }
    }

    /// The credentials the verify sends, as a user passes them with `--header`: a bearer token
    /// meets a requirement of every corpus document that has `security` (http bearer, oauth2).
    static let credentials: HTTPHeaders = ["Authorization": "Bearer petkit-verify"]

    /// petcontract's live verify of petmock serving `contract`, optionally under a server-wide
    /// variant, of every operation or of those named in `only`.
    static func verify(
        _ contract: Contract, variant: String? = nil, only: Set<String>? = nil
    ) async throws
        -> VerificationReport
    {
        let responder = OpenAPIResponder(contract: contract)
        let handler = try GeneratedStubsTests.handler(stubs: nil, fallback: responder, variant: variant)
        var checked = contract
        if let only { checked.operations = contract.operations.filter { only.contains($0.name) } }
        let verifier = LiveVerifier(
            contract: checked, transport: HandlerTransport(handler),
            configuration: .init(
                maxPerOperation: 1, headers: credentials, parameterValues: parameterValues(contract),
                methods: [.get, .put, .post, .delete, .patch, .head, .options]))
        return await verifier.verify(baseURL: "http://127.0.0.1" + responder.basePath, contractName: "document")
    }

    static func breaking(_ report: VerificationReport) -> [String] {
        report.findings.filter { $0.level == .breaking }.map { "\($0.id) \($0.operation) \($0.message)" }
    }

    @Test(arguments: cases) func theServedDocumentPassesItsOwnVerify(testCase: Case) async throws {
        let contract = try OpenAPIReader().read(file: GeneratedStubsTests.path(testCase.document))
        let report = try await Self.verify(contract)
        #expect(Self.breaking(report).isEmpty, "\(Self.breaking(report))")
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.skipped.isEmpty, "\(report.skipped)")
        #expect(report.operations.count == contract.operations.filter { !$0.responses.isEmpty }.count)
        guard let drift = testCase.drift, let operation = testCase.operation else { return }
        let drifted = try await Self.verify(contract, variant: drift)
        let found = drifted.findings.filter { $0.level == .breaking && $0.operation == operation }
        #expect(!found.isEmpty, "\(drift): \(Self.breaking(drifted))")
    }

    /// GitHub's REST description, read once for the tests that use it.
    static let githubContract = Result<Contract, any Error> { try readGitHub() }

    static func github() throws -> Contract {
        try githubContract.get()
    }

    /// GitHub's REST description, read from Benchmarks/data (gzip).
    static func readGitHub() throws -> Contract {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Benchmarks/data/api.github.com.json.gz")
        let compressed = [UInt8](try Data(contentsOf: url))
        let bytes = try ContentDecoding.decode(compressed, coding: "gzip", limit: 64 << 20).get()
        return try OpenAPIReader().read(bytes, source: "api.github.com.json")
    }

    /// GitHub's REST description: 600 operations and more, every one called.
    @Test func githubsDescriptionPassesItsOwnVerifyAndADriftIsFound() async throws {
        let contract = try Self.github()
        #expect(contract.operations.count > 600)
        let report = try await Self.verify(contract)
        #expect(Self.breaking(report).isEmpty, "\(Self.breaking(report).prefix(20))")
        #expect(report.errors.isEmpty, "\(report.errors.prefix(20))")
        #expect(report.operations.count > 600)
        // The drift on a few operations: the whole document was called above.
        let drifted = try await Self.verify(
            contract, variant: "missing:id", only: ["GET /repos/{owner}/{repo}", "GET /users/{username}"])
        let found = drifted.findings.filter { $0.level == .breaking && $0.id == .requiredPropertyMissing }
        #expect(found.contains { $0.operation == "GET /repos/{owner}/{repo}" }, "\(Self.breaking(drifted).prefix(5))")
    }
}
