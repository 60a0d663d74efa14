import APISchema
import JSONKit

/// Compares an old schema with a new one, recursively, collecting findings.
struct SchemaDiffWalk {
    enum Site {
        case root
        case item
        case property(name: String, required: Bool)
    }

    /// A schema with references followed and `anyOf [X, null]` folded.
    struct Resolved {
        var schema: Schema
        var nullable: Bool
        var reference: String?
    }

    /// A finding inside a component both contracts share: reported once for the component.
    struct ComponentFinding {
        let component: String
        let finding: Finding
    }

    let old: Contract
    let new: Contract
    let operation: String
    let status: Int?
    var findings: [Finding] = []
    /// Findings inside shared components, with paths from the component's root.
    var componentFindings: [ComponentFinding] = []
    /// The shared component being compared (the innermost), if any.
    var component: String?
    var visited: Set<String> = []
    var depth = 0

    init(old: Contract, new: Contract, operation: String, status: Int?) {
        self.old = old
        self.new = new
        self.operation = operation
        self.status = status
    }

    static func resolve(_ schema: Schema, in contract: Contract) -> Resolved {
        var current = schema
        var nullable = false
        var reference: String?
        for _ in 0..<32 {
            if current.reference != nil || !current.allOf.isEmpty {
                // A reference, or allOf parts (a `$ref` among them): followed and merged.
                let only = current.allOf.count == 1 && current.reference == nil ? current.allOf[0] : current
                reference = reference ?? only.referencedComponent
                current = contract.flattened(current)
                continue
            }
            let nonNull = current.anyOf.filter { $0.types != [.null] }
            if current.types.isEmpty && nonNull.count == 1 {
                nullable = nullable || current.anyOf.count > 1
                current = nonNull[0]
                continue
            }
            break
        }
        return Resolved(schema: current, nullable: nullable || current.isNullable, reference: reference)
    }

    mutating func add(
        _ id: FindingID, _ path: JSONPath, expected: String, actual: String, swift: String?, message: String,
        hint: String? = nil
    ) {
        record(
            Finding(
                id: id, operation: operation, status: status, path: path.description, expected: expected,
                actual: actual, swift: swift, message: message, hint: hint))
    }

    /// Keeps a finding: for the shared component being compared, or for the operation.
    mutating func record(_ finding: Finding) {
        if let component {
            componentFindings.append(ComponentFinding(component: component, finding: finding))
        } else {
            findings.append(finding)
        }
    }

    /// Whether to compare a pair of schemas: a component both sides share is entered once per
    /// walk (its findings then belong to it, with paths from its root), other pairs of
    /// components once per place, and nesting is bounded (a recursive `allOf` without a name).
    mutating func enter(
        _ oldSide: Resolved, _ newSide: Resolved, path: inout JSONPath, direction: String
    ) -> (entered: Bool, saved: String?) {
        guard depth < 64 else { return (false, component) }
        if let left = oldSide.reference, left == newSide.reference {
            guard visited.insert("\(direction)|\(left)").inserted else { return (false, component) }
            let saved = component
            component = left
            path = .root
            return (true, saved)
        }
        if let left = oldSide.reference, let right = newSide.reference {
            // A recursive schema: compare each pair of components once.
            guard visited.insert("\(direction)|\(left)|\(right)|\(path.generalized)").inserted else {
                return (false, component)
            }
        }
        return (true, component)
    }

    mutating func compare(_ before: Schema, _ after: Schema, path written: JSONPath, site: Site) {
        let oldSide = SchemaDiffWalk.resolve(before, in: old)
        let newSide = SchemaDiffWalk.resolve(after, in: new)
        let swift = before.swiftProperty ?? oldSide.schema.swiftType
        var path = written
        let (entered, saved) = enter(oldSide, newSide, path: &path, direction: "response")
        guard entered else { return }
        depth += 1
        defer {
            depth -= 1
            component = saved
        }
        let oldKinds = oldSide.schema.types.filter { $0 != .null }
        let newKinds = newSide.schema.types.filter { $0 != .null }
        let subject = SchemaDiffWalk.subject(site)
        if !oldKinds.isEmpty {
            let widened =
                newKinds.isEmpty
                || newKinds.contains { kind in
                    !oldKinds.contains(kind) && !(kind == .integer && oldKinds.contains(.number))
                }
            if widened {
                add(
                    .propertyTypeChanged, path, expected: oldSide.schema.typeText, actual: newSide.schema.typeText,
                    swift: swift,
                    message: "\(subject) changed type from \(oldSide.schema.typeText) to \(newSide.schema.typeText)")
                return
            }
        }
        if !oldSide.nullable && newSide.nullable {
            switch site {
            case .property(let name, let required):
                add(
                    required ? .requiredPropertyNull : .optionalPropertyNull, path, expected: "not null",
                    actual: "nullable",
                    swift: swift, message: "\(required ? "required" : "optional") property '\(name)' may now be null")
            default:
                add(
                    .propertyTypeChanged, path, expected: oldSide.schema.typeText, actual: newSide.schema.typeText,
                    swift: swift,
                    message: "\(subject) may now be null")
            }
        }
        if let oldFormat = oldSide.schema.format, newSide.schema.format != oldFormat {
            add(
                .propertyTypeChanged, path, expected: "format \(oldFormat)",
                actual: newSide.schema.format.map { "format \($0)" } ?? "no format",
                swift: swift, message: "\(subject) changed format")
        }
        if let oldValues = oldSide.schema.enumValues {
            let added = (newSide.schema.enumValues ?? []).filter { value in
                !oldValues.contains { $0.isEquivalent(to: value) }
            }
            if newSide.schema.enumValues == nil {
                add(
                    .enumValueAdded, path,
                    expected: "one of \(oldValues.map { $0.serialized() }.joined(separator: ", "))",
                    actual: "any value", swift: swift, message: "\(subject) is no longer limited to an enum")
            } else if !added.isEmpty {
                add(
                    .enumValueAdded, path,
                    expected: "one of \(oldValues.map { $0.serialized() }.joined(separator: ", "))",
                    actual: added.map { $0.serialized() }.joined(separator: ", "), swift: swift,
                    message: "\(subject) may now be \(added.map { $0.serialized() }.joined(separator: " or "))")
            }
        }
        compareResponseConstraints(oldSide.schema, newSide.schema, path: path, subject: subject)
        if let oldItems = oldSide.schema.items, let newItems = newSide.schema.items {
            compare(oldItems, newItems, path: path.appending(index: 0).generalized, site: .item)
        }
        // A `contains` widened lets a response hold no element the client looked for.
        if let oldContains = oldSide.schema.contains, let newContains = newSide.schema.contains {
            compare(oldContains, newContains, path: path.appending(index: 0).generalized, site: .item)
        }
        for (oldBranch, newBranch) in SchemaDiffWalk.pairedBranches(oldSide.schema, newSide.schema) {
            compare(oldBranch, newBranch, path: path, site: site)
        }
        compareProperties(oldSide.schema, newSide.schema, path: path)
    }

    /// `oneOf`/`anyOf` branches of both sides paired by the component they name, else by position.
    static func pairedBranches(_ before: Schema, _ after: Schema) -> [(Schema, Schema)] {
        var pairs: [(Schema, Schema)] = []
        for (index, branch) in before.anyOf.enumerated() {
            if let name = branch.referencedComponent {
                if let match = after.anyOf.first(where: { $0.referencedComponent == name }) {
                    pairs.append((branch, match))
                }
            } else if index < after.anyOf.count, after.anyOf[index].referencedComponent == nil {
                pairs.append((branch, after.anyOf[index]))
            }
        }
        return pairs
    }

    static func subject(_ site: Site) -> String {
        switch site {
        case .root: "the body"
        case .item: "the element"
        case .property(let name, _): "'\(name)'"
        }
    }
}
