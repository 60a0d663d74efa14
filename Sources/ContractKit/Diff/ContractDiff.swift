import JSONKit

/// Breaking, warning and info changes from one contract to the next, seen from a client that
/// was written against the old one; ids and levels as for live findings where they apply.
///
/// ```swift
/// let report = ContractDiff().report(old: base, new: head, oldName: "base.json", newName: "head.json")
/// ```
///
/// A property gone is `response-required-property-missing` (or optional), a new kind of value
/// `response-property-type-changed`, a property that may now be null the `-null` ids, a gone
/// property with a compatible new one a probable rename; whole operations and statuses have
/// their own ids (`operation-removed`, `response-status-removed`, ...).
public struct ContractDiff: Sendable {
    /// Creates a differ.
    public init() {}

    /// The changes as a report whose target is `OLD -> NEW`.
    public func report(old: Contract, new: Contract, oldName: String, newName: String) -> VerificationReport {
        let names =
            old.operations.map(\.name)
            + new.operations.map(\.name).filter { name in
                !old.operations.contains { ContractDiff.key($0) == ContractDiff.key(name: name) }
            }
        return VerificationReport(
            target: "\(oldName) -> \(newName)", contract: newName, operations: names,
            findings: changes(old: old, new: new))
    }

    /// Every change, in the old contract's operation order, additions last.
    public func changes(old: Contract, new: Contract) -> [Finding] {
        var findings: [Finding] = []
        for operation in old.operations {
            guard let counterpart = new.operations.first(where: { ContractDiff.key($0) == ContractDiff.key(operation) })
            else {
                findings.append(
                    Finding(
                        id: .operationRemoved, operation: operation.name, expected: operation.name, actual: "absent",
                        message: "operation \(operation.name) was removed"))
                continue
            }
            findings += compare(operation, counterpart, old: old, new: new)
        }
        for operation in new.operations
        where !old.operations.contains(where: { ContractDiff.key($0) == ContractDiff.key(operation) }) {
            findings.append(
                Finding(
                    id: .operationAdded, operation: operation.name, expected: "absent", actual: operation.name,
                    message: "operation \(operation.name) was added"))
        }
        return findings
    }

    /// Operations match by method and path with parameter names ignored.
    static func key(_ operation: ContractOperation) -> String {
        key(name: operation.name)
    }

    static func key(name: String) -> String {
        var result = ""
        var inParameter = false
        for character in name {
            if character == "{" {
                inParameter = true
                result += "{}"
            } else if character == "}" {
                inParameter = false
            } else if !inParameter {
                result.append(character)
            }
        }
        return result
    }

    private func compare(
        _ before: ContractOperation, _ after: ContractOperation, old: Contract, new: Contract
    ) -> [Finding] {
        var findings: [Finding] = []
        for response in before.responses {
            let status = Int(response.status)
            guard let counterpart = after.responses.first(where: { $0.status == response.status }) else {
                findings.append(
                    Finding(
                        id: .responseStatusRemoved, level: response.isSuccess ? .breaking : .info,
                        operation: before.name,
                        status: status, expected: response.status, actual: "absent",
                        message: "response \(response.status) of \(before.name) was removed"))
                continue
            }
            if let oldMedia = response.mediaType, counterpart.mediaType?.lowercased() != oldMedia.lowercased() {
                findings.append(
                    Finding(
                        id: .mediaTypeUnexpected, operation: before.name, status: status, expected: oldMedia,
                        actual: counterpart.mediaType ?? "no body",
                        message: "the \(response.status) response's media type changed"))
            }
            if let oldSchema = response.schema, let newSchema = counterpart.schema {
                var walk = SchemaDiffWalk(old: old, new: new, operation: before.name, status: status)
                walk.compare(oldSchema, newSchema, path: .root, site: .root)
                findings += walk.findings
            }
        }
        for response in after.responses where !before.responses.contains(where: { $0.status == response.status }) {
            findings.append(
                Finding(
                    id: .responseStatusAdded, operation: before.name, status: Int(response.status), expected: "absent",
                    actual: response.status, message: "response \(response.status) of \(before.name) was added"))
        }
        return findings
    }
}
