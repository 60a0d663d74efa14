import APISchema
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
    ///
    /// A change inside a component both contracts share (`#/components/schemas/Pet`) is one
    /// finding for the component, after the operations' own: its operation is `component Pet`,
    /// its path starts at the component's root, its count is the number of operations it
    /// affects and its hint lists them.
    public func changes(old: Contract, new: Contract) -> [Finding] {
        var findings: [Finding] = []
        var shared: [SchemaDiffWalk.ComponentFinding] = []
        for operation in old.operations {
            guard let counterpart = new.operations.first(where: { ContractDiff.key($0) == ContractDiff.key(operation) })
            else {
                findings.append(
                    Finding(
                        id: .operationRemoved, operation: operation.name, expected: operation.name, actual: "absent",
                        message: "operation \(operation.name) was removed"))
                continue
            }
            let compared = compare(operation, counterpart, old: old, new: new)
            findings += compared.findings
            shared += compared.shared
        }
        findings += ContractDiff.grouped(shared)
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

    /// One finding per component change, the operations (and statuses) it reaches listed.
    static func grouped(_ shared: [SchemaDiffWalk.ComponentFinding]) -> [Finding] {
        struct Key: Hashable {
            let component: String
            let id: FindingID
            let path: String
            let expected: String
            let actual: String
            let message: String
        }
        var order: [Key] = []
        var groups: [Key: (finding: Finding, places: [String], operations: [String])] = [:]
        for entry in shared {
            let finding = entry.finding
            let key = Key(
                component: entry.component, id: finding.id, path: finding.path, expected: finding.expected,
                actual: finding.actual, message: finding.message)
            let place = finding.operation + (finding.status.map { " (\($0))" } ?? " (request)")
            if var group = groups[key] {
                if !group.places.contains(place) { group.places.append(place) }
                if !group.operations.contains(finding.operation) { group.operations.append(finding.operation) }
                groups[key] = group
            } else {
                order.append(key)
                groups[key] = (finding, [place], [finding.operation])
            }
        }
        return order.compactMap { key in
            guard let group = groups[key] else { return nil }
            var finding = group.finding
            let count = group.operations.count
            // Not `#/components/...`: an ignore file reads `#` as the start of a comment.
            finding.operation = "component " + key.component
            finding.status = nil
            finding.count = count
            finding.message += " in component \(key.component) (\(count) operation\(count == 1 ? "" : "s"))"
            finding.hint = "affects " + group.places.joined(separator: ", ")
            return finding
        }
    }

    private func compare(
        _ before: ContractOperation, _ after: ContractOperation, old: Contract, new: Contract
    ) -> (findings: [Finding], shared: [SchemaDiffWalk.ComponentFinding]) {
        var findings = compareParameters(before, after, old: old, new: new)
        var shared: [SchemaDiffWalk.ComponentFinding] = []
        if let oldBody = before.requestBody {
            var walk = SchemaDiffWalk(old: old, new: new, operation: before.name, status: nil)
            for media in oldBody.content {
                guard let counterpart = after.requestBody?.media(media.mediaType) else {
                    findings.append(
                        Finding(
                            id: .requestBodyMediaTypeRemoved, operation: before.name, expected: media.mediaType,
                            actual: after.requestBody?.content.map(\.mediaType).joined(separator: ", ") ?? "no body",
                            message: "the request body no longer accepts \(media.mediaType)"))
                    continue
                }
                if let oldSchema = media.schema, let newSchema = counterpart.schema {
                    walk.compareRequest(oldSchema, newSchema, path: .root, site: .root)
                }
            }
            findings += walk.findings
            shared += walk.componentFindings
        } else if let newBody = after.requestBody, newBody.required {
            findings.append(
                Finding(
                    id: .requestBodyAddedRequired, operation: before.name, expected: "no body",
                    actual: newBody.content.map(\.mediaType).joined(separator: ", "),
                    message: "\(before.name) now requires a request body"))
        }
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
                shared += walk.componentFindings
            }
        }
        for response in after.responses where !before.responses.contains(where: { $0.status == response.status }) {
            findings.append(
                Finding(
                    id: .responseStatusAdded, operation: before.name, status: Int(response.status), expected: "absent",
                    actual: response.status, message: "response \(response.status) of \(before.name) was added"))
        }
        return (findings, shared)
    }

    /// The same parameter in the other operation: path parameters by position in the template
    /// (operations match with their names ignored), the others by name and location.
    static func counterpart(
        of parameter: ContractParameter, in operation: ContractOperation, among other: ContractOperation
    ) -> ContractParameter? {
        guard parameter.location == .path else {
            return other.parameters.first { $0.location == parameter.location && $0.name == parameter.name }
        }
        let position = ContractDiff.templateNames(operation.path).firstIndex(of: parameter.name)
        let names = ContractDiff.templateNames(other.path)
        guard let position, position < names.count else {
            return other.parameters.first { $0.location == .path && $0.name == parameter.name }
        }
        return other.parameters.first { $0.location == .path && $0.name == names[position] }
    }

    /// The placeholders of a path template in order: `/vets/{id}` gives `id`.
    static func templateNames(_ path: String) -> [String] {
        path.split(separator: "{").dropFirst().compactMap { part in part.split(separator: "}").first.map(String.init) }
    }

    /// Parameters match by name and location: one gone, newly required, narrowed in type or
    /// format, with fewer enum values or tighter bounds; a new parameter matters when it is
    /// required.
    private func compareParameters(
        _ before: ContractOperation, _ after: ContractOperation, old: Contract, new: Contract
    ) -> [Finding] {
        var findings: [Finding] = []
        func add(_ id: FindingID, _ parameter: ContractParameter, expected: String, actual: String, message: String) {
            findings.append(
                Finding(
                    id: id, operation: before.name, path: "\(parameter.location.rawValue).\(parameter.name)",
                    expected: expected, actual: actual, message: message))
        }
        for parameter in before.parameters {
            let label = "\(parameter.location.rawValue) parameter '\(parameter.name)'"
            guard let counterpart = ContractDiff.counterpart(of: parameter, in: before, among: after) else {
                add(
                    .requestParameterRemoved, parameter, expected: parameter.name, actual: "absent",
                    message: "\(label) was removed")
                continue
            }
            if !parameter.required && counterpart.required {
                add(
                    .requestParameterBecameRequired, parameter, expected: "optional", actual: "required",
                    message: "\(label) became required")
            }
            let oldSchema = old.flattened(parameter.schema)
            let newSchema = new.flattened(counterpart.schema)
            if let change = SchemaDiffWalk.narrowing(oldSchema, newSchema) {
                add(
                    .requestParameterTypeChanged, parameter, expected: oldSchema.typeText,
                    actual: newSchema.typeText, message: "\(label) \(change)")
            } else if let removed = SchemaDiffWalk.removedEnumValues(oldSchema, newSchema) {
                add(
                    .requestParameterEnumValueRemoved, parameter, expected: oldSchema.typeText,
                    actual: newSchema.typeText, message: "\(label) no longer accepts \(removed)")
            }
            let tightened = SchemaDiffWalk.tightened(oldSchema, newSchema).map(\.description).joined(separator: ", ")
            if !tightened.isEmpty {
                add(
                    .requestParameterBoundTightened, parameter, expected: "the old bounds", actual: tightened,
                    message: "\(label) is bounded more tightly: \(tightened)")
            }
        }
        for parameter in after.parameters
        where parameter.required && ContractDiff.counterpart(of: parameter, in: after, among: before) == nil {
            add(
                .requestParameterAddedRequired, parameter, expected: "absent", actual: "required",
                message: "required \(parameter.location.rawValue) parameter '\(parameter.name)' was added")
        }
        return findings
    }
}
