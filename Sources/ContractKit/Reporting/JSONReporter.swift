import APISchema
import JSONKit

/// The JSON report DESIGN.md specifies; its JSON Schema is `docs/petcontract-report.schema.json`.
struct JSONReporter {
    func render(_ report: VerificationReport) -> String {
        document(report).serialized(.pretty) + "\n"
    }

    func document(_ report: VerificationReport) -> JSONValue {
        let summary = report.summary
        let findings: [JSONValue] = report.findings.map { finding in
            .object(
                JSONObject([
                    ("id", .string(finding.id.rawValue)), ("level", .string(finding.level.rawValue)),
                    ("operation", .string(finding.operation)), ("url", finding.url.map(JSONValue.string) ?? .null),
                    ("status", finding.status.map { .int(Int64($0)) } ?? .null), ("path", .string(finding.path)),
                    ("count", .int(Int64(finding.count))), ("expected", .string(finding.expected)),
                    ("actual", .string(finding.actual)), ("swift", finding.swift.map(JSONValue.string) ?? .null),
                    ("message", .string(finding.message)), ("hint", finding.hint.map(JSONValue.string) ?? .null),
                ]))
        }
        let errors: [JSONValue] = report.errors.map { error in
            [
                "operation": .string(error.operation), "url": error.url.map(JSONValue.string) ?? .null,
                "message": .string(error.message),
            ]
        }
        var summaryObject: JSONValue = [
            "operations": .int(Int64(summary.operations)), "skipped": .int(Int64(summary.skipped)),
            "breaking": .int(Int64(summary.breaking)),
            "warning": .int(Int64(summary.warning)), "info": .int(Int64(summary.info)),
            "errors": .int(Int64(summary.errors)),
        ]
        if case .object(var members) = summaryObject {
            // A diff decodes nothing: `not-applicable`.
            members.append(key: "decodeCheck", value: .string(report.decodeCheck?.name ?? "not-applicable"))
            members.append(
                key: "typesWithoutModel",
                value: .array((report.decodeCheck?.typesWithoutModel ?? []).map(JSONValue.string)))
            summaryObject = .object(members)
        }
        var document: JSONValue = [
            "target": .string(report.target),
            "contract": .string(report.contract),
            "summary": summaryObject,
            "findings": .array(findings),
            "errors": .array(errors),
        ]
        // Which operations were not checked, and why (info): only when there are some.
        if !report.skipped.isEmpty, case .object(var members) = document {
            members.append(
                key: "skipped",
                value: .array(
                    report.skipped.map { ["operation": .string($0.operation), "reason": .string($0.reason)] }))
            document = .object(members)
        }
        return document
    }
}
