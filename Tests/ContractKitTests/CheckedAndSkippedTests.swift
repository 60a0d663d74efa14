import APISchema
import ContractKit
import HTTPCore
import PetAppContract
import TestSupport
import Testing

/// What a verification checked and what it skipped: every operation of the contract is one
/// or the other, the summary and every format count both, and `--strict` fails on skipped ones.
@Suite struct CheckedAndSkippedTests {
    static let ownersMapping =
        #"{"request": {"method": "GET", "urlPath": "/api/owners"}, "response": {"status": 200, "jsonBody": []}}"#

    static let skippedOne = VerificationReport(
        target: "http://api.test", contract: "t.json", operations: ["GET /a"],
        skipped: [SkippedOperation(operation: "GET /b/{id}", reason: "no value for {id}")])

    /// Mappings for paths the contract does not have check nothing: each operation is skipped.
    @Test func aStubFolderOfOtherPathsSkipsEveryOperation() throws {
        let folder = try TemporaryDirectory(prefix: "stubs", files: ["mappings/owners.json": Self.ownersMapping])
        defer { folder.remove() }
        let (contract, models) = try PetAPIProvider.make()
        let report = StubVerifier(contract: contract, models: models).verify(
            directory: folder.path, contractName: "built-in")
        #expect(report.operations.isEmpty)
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.skipped.map(\.operation) == contract.operations.map(\.name))
        #expect(report.notes.contains { $0.hasSuffix("skipped, no operation of the contract has this path") })
        #expect(
            report.summaryLine.hasPrefix("0 operations checked, 4 skipped, against \(folder.path)"),
            "\(report.summaryLine)")
    }

    /// The stub folder's mappings of one operation: the others are skipped, the selected ones only.
    @Test func operationsWithoutABaseMappingAreSkipped() throws {
        let pets =
            #"{"request": {"method": "GET", "urlPath": "/api/pets"}, "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "jsonBody": []}}"#
        let folder = try TemporaryDirectory(prefix: "stubs", files: ["mappings/pets.json": pets])
        defer { folder.remove() }
        let (contract, models) = try PetAPIProvider.make()
        let report = StubVerifier(contract: contract, models: models).verify(
            directory: folder.path, contractName: "built-in")
        #expect(report.operations == ["GET /pets"])
        #expect(report.skipped.map(\.operation) == ["GET /pets/{id}", "GET /vets", "GET /vets/{id}"])
        let selected = StubVerifier(contract: contract, models: models, selected: ["GET /pets", "GET /vets"])
            .verify(directory: folder.path, contractName: "built-in")
        #expect(selected.skipped.map(\.operation) == ["GET /vets"])
    }

    /// An operation whose method `--methods` leaves out is skipped, not a note.
    @Test func anOperationWhoseMethodIsNotCalledIsSkipped() async throws {
        let ok = #""responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {}}}}}"#
        let document =
            #"{"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "paths": {"/pets": {"get": {\#(ok)}, "post": {\#(ok)}}}}"#
        let contract = try OpenAPIReader().read(Array(document.utf8), source: "t.json")
        let transport = ClosureTransport { _ throws(HTTPClientError) in
            HTTPClientResponse(
                status: HTTPStatus(code: 200), headers: ["Content-Type": "application/json"], body: Array("{}".utf8))
        }
        let report = await LiveVerifier(contract: contract, transport: transport)
            .verify(baseURL: "http://api.test", contractName: "t.json")
        #expect(report.operations == ["GET /pets"])
        #expect(report.skipped.map(\.operation) == ["POST /pets"])
        #expect(report.skipped.first?.reason.contains("--methods") == true)
        #expect(!report.notes.contains { $0.contains("POST /pets") }, "\(report.notes)")
        #expect(report.summaryLine.hasPrefix("1 operation checked, 1 skipped, against http://api.test"))
    }

    /// Skipped operations fail nothing by default; under `--strict` the check is incomplete.
    @Test func strictFailsOnSkippedOperations() {
        #expect(Self.skippedOne.outcome(strict: false) == .passed)
        #expect(Self.skippedOne.outcome(strict: true) == .couldNotVerify)
    }

    /// The text summary, JSON, JUnit, SARIF and HTML all count checked and skipped operations.
    @Test func everyFormatCountsCheckedAndSkipped() {
        let renderer = ReportRenderer()
        #expect(
            renderer.render(Self.skippedOne, as: .text).contains(
                "1 operation checked, 1 skipped, against http://api.test (contract t.json): 0 breaking"))
        let json = renderer.render(Self.skippedOne, as: .json)
        #expect(json.contains(#""operations": 1,"#) && json.contains(#""skipped": 1,"#), "\(json)")
        let empty = renderer.render(VerificationReport(target: "t", contract: "c", operations: ["GET /a"]), as: .json)
        #expect(empty.contains(#""skipped": 0,"#), "\(empty)")
        let junit = renderer.render(Self.skippedOne, as: .junit)
        #expect(junit.contains(#"tests="2" failures="0" errors="0" skipped="1""#), "\(junit)")
        let sarif = renderer.render(Self.skippedOne, as: .sarif)
        #expect(sarif.contains(#""operations": 1"#) && sarif.contains(#""skipped": 1"#), "\(sarif)")
        let html = renderer.render(Self.skippedOne, as: .html)
        #expect(html.contains("<b>1</b> checked") && html.contains("<b>1</b> skipped"), "\(html)")
    }
}
