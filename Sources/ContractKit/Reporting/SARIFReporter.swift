import APISchema
import JSONKit

/// SARIF 2.1.0: one run of the `petcontract` tool; a rule per finding id (plus
/// `could-not-verify` and `operation-skipped`), a result per finding with the operation and
/// JSON path as its logical location and the contract as its artifact; the run's properties
/// count the operations checked and skipped.
struct SARIFReporter {
    func render(_ report: VerificationReport) -> String {
        document(report).serialized(.pretty) + "\n"
    }

    func document(_ report: VerificationReport) -> JSONValue {
        var rules: [JSONValue] = FindingID.allCases.map { id in
            [
                "id": .string(id.rawValue), "name": .string(id.rawValue),
                "shortDescription": ["text": .string(id.summary)],
                "defaultConfiguration": ["level": .string(id.level.sarifLevel)],
                "properties": ["petcontractLevel": .string(id.level.rawValue)],
            ]
        }
        rules.append(
            [
                "id": "could-not-verify", "name": "could-not-verify",
                "shortDescription": ["text": "An endpoint or stub could not be checked"],
                "defaultConfiguration": ["level": "error"],
            ])
        rules.append(
            [
                "id": "operation-skipped", "name": "operation-skipped",
                "shortDescription": ["text": "An operation of the contract was not checked"],
                "defaultConfiguration": ["level": "note"],
            ])
        var results: [JSONValue] = report.findings.map { finding in
            var properties = JSONObject([
                ("operation", .string(finding.operation)), ("path", .string(finding.path)),
                ("count", .int(Int64(finding.count))), ("expected", .string(finding.expected)),
                ("actual", .string(finding.actual)), ("petcontractLevel", .string(finding.level.rawValue)),
            ])
            if let url = finding.url { properties["url"] = .string(url) }
            if let status = finding.status { properties["status"] = .int(Int64(status)) }
            if let swift = finding.swift { properties["swift"] = .string(swift) }
            if let hint = finding.hint { properties["hint"] = .string(hint) }
            return [
                "ruleId": .string(finding.id.rawValue),
                "level": .string(finding.level.sarifLevel),
                "message": ["text": .string("\(finding.operation) \(finding.path): \(finding.message)")],
                "locations": [location(report, operation: finding.operation, path: finding.path)],
                "properties": .object(properties),
            ]
        }
        for error in report.errors {
            results.append(
                [
                    "ruleId": "could-not-verify", "level": "error",
                    "message": ["text": .string("\(error.operation): could not verify: \(error.message)")],
                    "locations": [location(report, operation: error.operation, path: nil)],
                    "properties": ["url": error.url.map(JSONValue.string) ?? .null],
                ])
        }
        for skipped in report.skipped {
            results.append(
                [
                    "ruleId": "operation-skipped", "level": "note",
                    "message": ["text": .string("\(skipped.operation): skipped: \(skipped.reason)")],
                    "locations": [location(report, operation: skipped.operation, path: nil)],
                ])
        }
        let run: JSONValue = [
            "tool": [
                "driver": [
                    "name": "petcontract", "semanticVersion": "0.1.0", "rules": .array(rules),
                ]
            ],
            "properties": [
                "target": .string(report.target), "operations": .int(Int64(report.operations.count)),
                "skipped": .int(Int64(report.skipped.count)),
            ],
            "results": .array(results),
        ]
        return [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [run],
        ]
    }

    private func location(_ report: VerificationReport, operation: String, path: String?) -> JSONValue {
        let name = path.map { "\(operation) \($0)" } ?? operation
        return [
            "physicalLocation": ["artifactLocation": ["uri": .string(report.contract)]],
            "logicalLocations": [["fullyQualifiedName": .string(name), "kind": "member"]],
        ]
    }
}

extension FindingLevel {
    /// SARIF's level for the finding level.
    var sarifLevel: String {
        switch self {
        case .breaking: "error"
        case .warning: "warning"
        case .info: "note"
        }
    }
}
