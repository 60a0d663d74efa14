import APISchema
import ContractKit
import Foundation
import JSONKit
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Every format against a snapshot, and JUnit/SARIF/JSON checked for well-formedness.
///
/// To update a snapshot after an intended change: `PETKIT_RECORD_SNAPSHOTS=1 swift test
/// --filter ReporterTests`, then review the diff of `Tests/ContractKitTests/Snapshots/`.
@Suite struct ReporterTests {
    static let snapshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Snapshots")

    static let report = VerificationReport(
        target: "http://127.0.0.1:8081/api", contract: "Contracts/petapi.openapi.json",
        operations: ["GET /pets", "GET /pets/{id}", "GET /vets", "GET /vets/{id}"],
        findings: [
            Finding(
                id: .propertyProbablyRenamed, operation: "GET /pets", url: "http://127.0.0.1:8081/api/pets",
                status: 200,
                path: "$[0].vetId", count: 4, expected: "'vetId' (integer)", actual: "'practitionerId': 1",
                swift: "PetJsonModel.vetId: Int?",
                message: "'vetId' is missing and 'practitionerId' appeared with a compatible value: probably renamed",
                hint:
                    "rename 'vetId' to 'practitionerId' in the model's CodingKeys, or fix the API (name similarity 21%)"
            ),
            Finding(
                id: .optionalPropertyNull, operation: "GET /vets/{id}", url: "http://127.0.0.1:8081/api/vets/2",
                status: 200,
                path: "$.title", expected: "string", actual: "null", swift: "VetJsonModel.title: String?",
                message: "optional property 'title' is null"),
            Finding(
                id: .propertyUnexpected, operation: "GET /vets", url: "http://127.0.0.1:8081/api/vets", status: 200,
                path: "$[1].clinic", expected: "no such property", actual: #""Oslo & <Bergen>""#, swift: "VetJsonModel",
                message: "property 'clinic' is not in the contract"),
        ],
        errors: [
            VerificationError(
                operation: "GET /pets/{id}", url: "http://127.0.0.1:8081/api/pets/1",
                message: "timed out: Operation timed out after 10000 milliseconds")
        ],
        notes: ["GET /owners: not called (only GET operations are verified live)"], ignored: 1)

    func check(_ name: String, _ output: String) throws {
        let file = ReporterTests.snapshots.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["PETKIT_RECORD_SNAPSHOTS"] == "1" {
            try Data(output.utf8).write(to: file)
            return
        }
        let snapshot = try String(contentsOf: file, encoding: .utf8)
        #expect(output == snapshot, "\(name) differs from its snapshot")
    }

    @Test(arguments: [
        (ReportFormat.text, "report.txt"), (.json, "report.json"), (.junit, "report.junit.xml"),
        (.github, "report.github.txt"), (.sarif, "report.sarif.json"),
    ])
    func formatsMatchTheirSnapshots(format: ReportFormat, file: String) throws {
        try check(file, ReportRenderer().render(ReporterTests.report, as: format))
    }

    @Test func colouredTextMatchesItsSnapshot() throws {
        let text = ReportRenderer(color: true).render(ReporterTests.report, as: .text)
        #expect(text.contains("\u{1B}[1;31merror\u{1B}[0m"))
        try check("report.color.txt", text)
    }

    @Test(arguments: [
        (true, [String: String](), true), (true, ["NO_COLOR": "1"], false), (false, [:], false),
        (true, ["NO_COLOR": ""], true),
        (true, ["TERM": "dumb"], false),
    ])
    func colourOnlyOnATerminalWithoutNoColor(isTerminal: Bool, environment: [String: String], expected: Bool) {
        #expect(ReportRenderer.wantsColor(isTerminal: isTerminal, environment: environment) == expected)
    }

    @Test func strictJUnitCountsWarningsAsFailures() {
        let relaxed = ReportRenderer().render(ReporterTests.report, as: .junit)
        let strict = ReportRenderer(strict: true).render(ReporterTests.report, as: .junit)
        #expect(relaxed.contains(#"tests="4" failures="1" errors="1""#))
        #expect(strict.contains(#"tests="4" failures="2" errors="1""#))
    }

    final class XMLCounter: NSObject, XMLParserDelegate {
        var elements: [String: Int] = [:]
        var testsuiteAttributes: [String: String] = [:]
        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            elements[name, default: 0] += 1
            if name == "testsuite" { testsuiteAttributes = attributes }
        }
    }

    @Test func junitIsWellFormedXML() throws {
        for strict in [false, true] {
            let xml = ReportRenderer(strict: strict).render(ReporterTests.report, as: .junit)
            let parser = XMLParser(data: Data(xml.utf8))
            let counter = XMLCounter()
            parser.delegate = counter
            #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
            #expect(counter.elements["testsuites"] == 1)
            #expect(counter.elements["testcase"] == 4)
            #expect(counter.elements["error"] == 1)
            #expect(counter.elements["failure"] == (strict ? 2 : 1))
            #expect(counter.testsuiteAttributes["tests"] == "4")
        }
        let empty = ReportRenderer().render(VerificationReport(target: "t", contract: "c"), as: .junit)
        #expect(XMLParser(data: Data(empty.utf8)).parse())
    }

    @Test func sarifIsWellFormed() throws {
        let sarif = try JSONValue(parsing: ReportRenderer().render(ReporterTests.report, as: .sarif))
        #expect(sarif["version"] == "2.1.0")
        #expect(sarif["$schema"]?.stringValue?.hasSuffix("sarif-2.1.0.json") == true)
        let run = try #require(sarif["runs"]?[0])
        #expect(run["tool"]?["driver"]?["name"] == "petcontract")
        let rules = try #require(run["tool"]?["driver"]?["rules"]?.arrayValue)
        let ruleIds = Set(rules.compactMap { $0["id"]?.stringValue })
        #expect(ruleIds.count == rules.count)
        #expect(ruleIds.isSuperset(of: FindingID.allCases.map(\.rawValue)))
        let results = try #require(run["results"]?.arrayValue)
        #expect(results.count == 4)
        for result in results {
            let ruleId = try #require(result["ruleId"]?.stringValue)
            #expect(ruleIds.contains(ruleId))
            #expect(["error", "warning", "note"].contains(result["level"]?.stringValue ?? ""))
            #expect(result["message"]?["text"]?.stringValue?.isEmpty == false)
            #expect(result["locations"]?[0]?["physicalLocation"]?["artifactLocation"]?["uri"] != nil)
        }
    }

    @Test func jsonReportConformsToTheDocumentedSchema() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let schema = try String(
            contentsOf: root.appendingPathComponent("docs/petcontract-report.schema.json"), encoding: .utf8)
        // Check the report with our own validator: wrap the JSON Schema in a one-operation contract.
        let wrapper = """
            {"openapi": "3.1.0", "paths": {"/report": {"get": {"responses": {"200": {"description": "report",
             "content": {"application/json": {"schema": \(schema)}}}}}}}}
            """
        let contract = try OpenAPIReader().read(Array(wrapper.utf8), source: "schema")
        let validator = ContractValidator(contract: contract)
        let operation = try #require(contract.operation(named: "GET /report"))
        let schemaOnly = VerificationReport(target: "t", contract: "c", decodeCheck: .partial(withoutModel: ["Pet"]))
        let skipped = VerificationReport(
            target: "t", contract: "c", skipped: [SkippedOperation(operation: "GET /a/{b}", reason: "no value for {b}")]
        )
        for report in [ReporterTests.report, VerificationReport(target: "t", contract: "c"), schemaOnly, skipped] {
            let json = ReportRenderer().render(report, as: .json)
            // `skipped` is written only when there are some: its absence is no drift.
            let findings = validator.validate(
                ObservedResponse(url: "report", status: 200, body: Array(json.utf8)), for: operation
            )
            .findings.filter { $0.id != .optionalPropertyMissing }
            #expect(findings.isEmpty, "\(findings.map(\.message))")
        }
        // And the check has teeth: an extra key or a wrong level is caught.
        let broken =
            #"{"target": "t", "contract": "c", "summary": {"operations": 0, "breaking": 0, "warning": 0, "info": 0, "errors": 0, "decodeCheck": "full", "typesWithoutModel": []}, "findings": [{"id": "x", "level": "fatal"}], "errors": [], "extra": 1}"#
        let findings = validator.validate(
            ObservedResponse(url: "report", status: 200, body: Array(broken.utf8)), for: operation
        )
        .findings
        #expect(findings.contains { $0.path == "$.extra" })
        #expect(findings.contains { $0.path == "$.findings[0].level" })
        #expect(findings.contains { $0.path == "$.findings[0].count" })
    }

    @Test func githubAnnotationsAreOneLineEach() {
        let output = ReportRenderer().render(ReporterTests.report, as: .github)
        let lines = output.split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines[0].hasPrefix("::error title=response-property-probably-renamed::GET /pets $[0].vetId: "))
        #expect(lines[1].hasPrefix("::warning title=response-optional-property-null::"))
        #expect(lines[2].hasPrefix("::notice title=response-property-unexpected::"))
        #expect(lines[3].hasPrefix("::error title=could-not-verify::"))
        #expect(lines[0].contains("%0ASwift: PetJsonModel.vetId: Int?"))
    }

    static let injected = "x\u{1B}[2J\n::error::INJECTED"

    /// A report whose every field carries a key an API sent, as the validator words it.
    static let injectedReport = VerificationReport(
        target: "http://127.0.0.1:8081/api", contract: "built-in", operations: ["GET /pets"],
        findings: [
            Finding(
                id: .propertyUnexpected, operation: "GET /pets", url: "http://127.0.0.1:8081/api/pets", status: 200,
                path: "$[0]['\(injected)']", expected: "no such property", actual: "'\(injected)': 1",
                swift: "PetJsonModel", message: "property '\(injected)' is not in the contract", hint: injected)
        ],
        errors: [VerificationError(operation: "GET /pets", url: nil, message: "malformed response: \(injected)")],
        notes: [injected],
        skipped: [SkippedOperation(operation: "GET /\(injected)", reason: "no value for {\(injected)}")])

    @Test(arguments: ReportFormat.allCases)
    func textFromTheAPICannotActOnATerminalOrACILog(_ format: ReportFormat) {
        for color in [false, true] {
            let output = ReportRenderer(color: color).render(Self.injectedReport, as: format)
            // The only ESC allowed is the renderer's own colouring.
            let withoutColour = output.replacing(/\u{1B}\[[0-9;]*m/, with: "")
            #expect(!withoutColour.unicodeScalars.contains("\u{1B}"), "\(format): a raw ESC")
            let commands = output.split(separator: "\n", omittingEmptySubsequences: false).filter {
                $0.drop { $0 == " " || $0 == "\t" }.hasPrefix("::")
            }
            if format == .github {
                #expect(commands.count == 3, "one annotation per finding, error and skip, no more: \(commands)")
                let own = ["::error title=", "::warning title=", "::notice title="]
                #expect(commands.allSatisfy { command in own.contains { command.hasPrefix($0) } }, "\(commands)")
            } else {
                #expect(commands.isEmpty, "\(format): \(commands)")
            }
        }
    }

    @Test func escapesAreVisibleInTextAndWorkflowCommands() {
        let text = ReportRenderer().render(Self.injectedReport, as: .text)
        #expect(text.contains(#"property 'x\u001b[2J\u000a::error::INJECTED' is not in the contract"#))
        let github = ReportRenderer().render(Self.injectedReport, as: .github)
        #expect(github.contains(#"x\u001b[2J\u000a::error::INJECTED"#))
    }
}
