import JSONKit

/// A schema compiled for walking: `$ref`s resolved to shared nodes, properties indexed by
/// name, `anyOf [X, null]` folded into a nullable X.
///
/// Nodes form a graph (a recursive schema points back at itself), so they are classes that
/// are filled in right after creation and never changed again. `@unchecked Sendable` is safe
/// because ``ValidationPlan/compile(_:in:)`` finishes every node before a plan is returned
/// and nothing mutates one afterwards.
final class PlanNode: @unchecked Sendable {
    enum Additional {
        case allowed
        case forbidden
        case node(PlanNode)
    }

    struct Property {
        let name: String
        let node: PlanNode
        let required: Bool
        let swift: String?
    }

    var kinds: [JSONKind] = []
    var nullable = false
    var enumValues: [JSONValue]?
    var format: String?
    var items: PlanNode?
    var properties: [Property] = []
    var propertyIndex: [String: Int] = [:]
    var additional: Additional = .allowed
    var anyOf: [PlanNode] = []
    var swiftType: String?
    /// Set for a nullable wrapper (`anyOf [X, null]`): validate as `delegate`, also allow null.
    var delegate: PlanNode?
    /// Whether the node says anything at all; an empty schema accepts every value.
    var isUnconstrained = true

    /// The index of the property named `key`: a scan for the few properties most objects
    /// have (cheaper than hashing the key), the index dictionary beyond.
    @inline(__always)
    func position(of key: String) -> Int? {
        if properties.count <= 8 {
            for index in properties.indices where properties[index].name == key { return index }
            return nil
        }
        return propertyIndex[key]
    }

    /// Whether a value of this kind passes the `type` check (integers are numbers too).
    @inline(__always)
    func allows(_ kind: JSONKind) -> Bool {
        if kinds.isEmpty { return true }
        if kind == .null { return nullable }
        for allowed in kinds where allowed == kind || (kind == .integer && allowed == .number) { return true }
        return false
    }

    /// The kinds without null, as a message says them: `integer`, `string (date-time)`.
    var nonNullTypeText: String {
        if let delegate { return delegate.nonNullTypeText }
        if let enumValues {
            return "one of " + enumValues.filter { $0 != .null }.map { $0.serialized() }.joined(separator: ", ")
        }
        if kinds.isEmpty { return anyOf.isEmpty ? "any value" : anyOf.map(\.typeText).joined(separator: " or ") }
        return kinds.map { kind in
            if let format, kind == .string { return "\(kind.rawValue) (\(format))" }
            return kind.rawValue
        }.joined(separator: " or ")
    }

    /// The kinds allowed, as a message says them: `integer or null`.
    var typeText: String {
        let base = nonNullTypeText
        return (delegate?.nullable ?? false) || nullable ? base + " or null" : base
    }
}

/// Compiles ``Schema``s of one contract into ``PlanNode``s, sharing a node per component.
struct ValidationPlan {
    let contract: Contract
    private var components: [String: PlanNode] = [:]

    init(contract: Contract) {
        self.contract = contract
    }

    mutating func compile(_ schema: Schema) -> PlanNode {
        if let name = schema.referencedComponent {
            if let existing = components[name] { return existing }
            let node = PlanNode()
            components[name] = node
            if let target = contract.component(named: name) { fill(node, from: target) }
            return node
        }
        let node = PlanNode()
        fill(node, from: schema)
        return node
    }

    private mutating func fill(_ node: PlanNode, from schema: Schema) {
        // anyOf [X, {type: null}] is how 3.1 writes a nullable reference: fold it.
        let nonNull = schema.anyOf.filter { $0.types != [.null] }
        if !schema.anyOf.isEmpty && nonNull.count == 1 && schema.types.isEmpty {
            let inner = compile(nonNull[0])
            node.delegate = inner
            node.nullable = schema.anyOf.count > nonNull.count
            node.swiftType = schema.swiftType
            node.isUnconstrained = false
            return
        }
        node.kinds = schema.types.filter { $0 != .null }
        node.nullable = schema.types.isEmpty || schema.types.contains(.null)
        node.enumValues = schema.enumValues
        node.format = schema.format
        node.swiftType = schema.swiftType
        node.anyOf = schema.anyOf.map { compile($0) }
        if !node.anyOf.isEmpty {
            node.nullable =
                schema.types.isEmpty ? schema.anyOf.contains { $0.types.isEmpty || $0.isNullable } : node.nullable
        }
        if let items = schema.items { node.items = compile(items) }
        let required = Set(schema.required)
        for property in schema.properties {
            node.propertyIndex[property.name] = node.properties.count
            node.properties.append(
                PlanNode.Property(
                    name: property.name, node: compile(property.schema), required: required.contains(property.name),
                    swift: property.schema.swiftProperty))
        }
        switch schema.additionalProperties {
        case .forbidden: node.additional = .forbidden
        case .schema(let inner): node.additional = .node(compile(inner))
        default: node.additional = .allowed
        }
        node.isUnconstrained =
            schema.types.isEmpty && schema.enumValues == nil && schema.properties.isEmpty && schema.items == nil
            && schema.anyOf.isEmpty && schema.format == nil && schema.additionalProperties == nil
    }
}
