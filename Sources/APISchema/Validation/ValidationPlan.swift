import JSONKit
import LinearRegex

/// A schema compiled for walking: `$ref`s resolved to shared nodes, properties indexed by
/// name, `anyOf [X, null]` folded into a nullable X.
///
/// Nodes form a graph (a recursive schema points back at itself), so they are classes that
/// are filled in right after creation and never changed again. `@unchecked Sendable` is safe
/// because ``ValidationPlan/compile(_:in:)`` finishes every node before a plan is returned
/// and nothing mutates one afterwards.
package final class PlanNode: @unchecked Sendable {
    enum Additional {
        case allowed
        case forbidden
        case node(PlanNode)
    }

    package struct Property {
        package let name: String
        package let node: PlanNode
        package let required: Bool
        package let swift: String?
        /// `writeOnly`: must not appear in a response.
        let writeOnly: Bool
    }

    /// `discriminator`: the property, and the branch each of its values picks.
    struct Discriminator {
        let property: String
        let branches: [String: PlanNode]
    }

    var kinds: [JSONKind] = []
    var nullable = false
    var enumValues: [JSONValue]?
    var format: String?
    package var items: PlanNode?
    /// `prefixItems`: the nodes of the first elements (``items`` holds for the rest).
    var prefixItems: [PlanNode] = []
    /// `contains`: the node some elements must match (``limits`` holds the counts).
    var contains: PlanNode?
    package var properties: [Property] = []
    package var propertyIndex: [String: Int] = [:]
    var additional: Additional = .allowed
    var anyOf: [PlanNode] = []
    /// `oneOf`: exactly one branch of ``anyOf`` may match.
    var exclusive = false
    var discriminator: Discriminator?
    var not: PlanNode?
    var limits = SchemaLimits()
    /// Whether ``limits`` bounds numbers, strings or arrays: the walk's fast paths skip the rest.
    var boundsNumbers = false
    var boundsStrings = false
    var boundsArrays = false
    var boundsObjects = false
    /// `pattern` compiled, when it compiles and is at most ``ValidationPlan/patternLimit`` long.
    var pattern: LinearTimeRegex?
    package var swiftType: String?
    /// Set for a nullable wrapper (`anyOf [X, null]`): validate as `delegate`, also allow null.
    package var delegate: PlanNode?
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
        var budget = Self.typeTextBudget
        return nonNullTypeText(depth: 0, budget: &budget)
    }

    /// The kinds allowed, as a message says them: `integer or null`.
    package var typeText: String {
        var budget = Self.typeTextBudget
        return typeText(depth: 0, budget: &budget)
    }

    /// The nodes one text names at most: choices that nest choices (a `oneOf` whose branch is
    /// an `anyOf` of the schema itself) would otherwise make a text exponential in the depth.
    static let typeTextBudget = 24

    /// Bounded in depth and in nodes, because choices can refer to each other in a cycle.
    private func nonNullTypeText(depth: Int, budget: inout Int) -> String {
        budget -= 1
        if depth > 8 || budget < 0 { return "a schema" }
        if let delegate { return delegate.nonNullTypeText(depth: depth + 1, budget: &budget) }
        if let enumValues {
            return "one of " + enumValues.filter { $0 != .null }.map { $0.serialized() }.joined(separator: ", ")
        }
        if kinds.isEmpty {
            guard !anyOf.isEmpty else { return "any value" }
            var texts: [String] = []
            for branch in anyOf { texts.append(branch.typeText(depth: depth + 1, budget: &budget)) }
            return texts.joined(separator: " or ")
        }
        return kinds.map { kind in
            if let format, kind == .string { return "\(kind.rawValue) (\(format))" }
            return kind.rawValue
        }.joined(separator: " or ")
    }

    private func typeText(depth: Int, budget: inout Int) -> String {
        let base = nonNullTypeText(depth: depth, budget: &budget)
        return (delegate?.nullable ?? false) || nullable ? base + " or null" : base
    }
}

/// Compiles ``Schema``s of one contract into ``PlanNode``s, sharing a node per component.
package struct ValidationPlan {
    let contract: Contract
    private var components: [String: PlanNode] = [:]
    /// Nodes of schemas with `allOf` parts, shared like components: a part that refers back to
    /// a schema holding the same `allOf` gives the same node, so compiling terminates.
    private var composed: [Schema: PlanNode] = [:]
    /// Every node made, for ``PlanGraph`` to break their cycles when the plan goes.
    package private(set) var nodes: [PlanNode] = []

    package init(contract: Contract) {
        self.contract = contract
    }

    /// Patterns longer than this are not checked (a bound on the compiled program's size).
    static let patternLimit = 512

    /// A `pattern` as the validator matches it, or nil when it is longer than ``patternLimit``
    /// or does not compile: JSON Schema's `pattern` searches (it is not anchored), so a whole
    /// match of `.*(?:pattern).*`, in linear time whatever the pattern. A subject longer than
    /// ``patternSubjectLimit`` is not matched.
    package static func searching(_ pattern: String) -> LinearTimeRegex? {
        guard pattern.count <= patternLimit else { return nil }
        return try? LinearTimeRegex("(?s).*(?:" + pattern + ").*")
    }
    /// Strings longer than this are not matched against a `pattern`.
    package static let patternSubjectLimit = 4096

    package mutating func compile(_ schema: Schema) -> PlanNode {
        if let name = schema.referencedComponent, schema.allOf.isEmpty {
            if let existing = components[name] { return existing }
            let node = made(PlanNode())
            components[name] = node
            // Flattened through the reference, so the component's own name counts as being
            // flattened (a subtype naming it again through its parent stops there).
            if contract.component(named: name) != nil { fill(node, from: Schema(reference: schema.reference)) }
            return node
        }
        if !schema.allOf.isEmpty {
            if let existing = composed[schema] { return existing }
            let node = made(PlanNode())
            composed[schema] = node
            fill(node, from: schema)
            return node
        }
        let node = made(PlanNode())
        fill(node, from: schema)
        return node
    }

    private mutating func made(_ node: PlanNode) -> PlanNode {
        nodes.append(node)
        return node
    }

    private mutating func fill(_ node: PlanNode, from written: Schema) {
        // `$ref`s of allOf parts followed and merged: the same schema the diff sees.
        let schema = contract.flattened(written)
        // anyOf [X, {type: null}] is how 3.1 writes a nullable reference: fold it.
        let nonNull = schema.anyOf.filter { $0.types != [.null] }
        if !schema.anyOf.isEmpty && nonNull.count == 1 && schema.types.isEmpty && schema.properties.isEmpty
            && schema.discriminator == nil && schema.not == nil
        {
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
        // Properties beside a oneOf/anyOf hold for every branch: each branch is checked as
        // allOf [those properties, the branch].
        var own: Schema?
        if !schema.anyOf.isEmpty && (!schema.properties.isEmpty || !schema.required.isEmpty) {
            var part = schema
            part.anyOf = []
            part.discriminator = nil
            part.not = nil
            part.examples = []
            own = part
        }
        func branch(_ alternative: Schema) -> Schema {
            guard var combined = own else { return alternative }
            combined.allOf = [alternative]
            return combined
        }
        node.anyOf = schema.anyOf.map { compile(branch($0)) }
        node.exclusive = schema.branchesExclusive
        if let discriminator = schema.discriminator {
            var branches: [String: PlanNode] = [:]
            for (alternative, compiled) in zip(schema.anyOf, node.anyOf) {
                if let name = alternative.referencedComponent { branches[name] = compiled }
            }
            for (value, target) in discriminator.mapping {
                branches[value] = compile(branch(Schema(reference: target)))
            }
            node.discriminator = PlanNode.Discriminator(property: discriminator.propertyName, branches: branches)
        }
        if let not = schema.not { node.not = compile(not) }
        node.limits = schema.limits
        node.boundsNumbers = schema.limits.boundsNumbers
        node.boundsStrings =
            schema.limits.minLength != nil || schema.limits.maxLength != nil || schema.limits.pattern != nil
        node.boundsArrays =
            schema.limits.minItems != nil || schema.limits.maxItems != nil || schema.limits.uniqueItems
            || schema.contains != nil
        node.boundsObjects = schema.limits.minProperties != nil || schema.limits.maxProperties != nil
        if let pattern = schema.limits.pattern { node.pattern = Self.searching(pattern) }
        if !node.anyOf.isEmpty {
            node.nullable =
                schema.types.isEmpty ? schema.anyOf.contains { $0.types.isEmpty || $0.isNullable } : node.nullable
        }
        if let items = schema.items { node.items = compile(items) }
        node.prefixItems = schema.prefixItems.map { compile($0) }
        if let contains = schema.contains { node.contains = compile(contains) }
        let required = Set(schema.required)
        for property in schema.properties {
            node.propertyIndex[property.name] = node.properties.count
            node.properties.append(
                PlanNode.Property(
                    name: property.name, node: compile(property.schema), required: required.contains(property.name),
                    swift: property.schema.swiftProperty, writeOnly: contract.flattened(property.schema).writeOnly))
        }
        // A required name the schema gives no property schema for must still be present.
        for name in schema.required where node.propertyIndex[name] == nil {
            node.propertyIndex[name] = node.properties.count
            node.properties.append(
                PlanNode.Property(name: name, node: made(PlanNode()), required: true, swift: nil, writeOnly: false))
        }
        switch schema.additionalProperties {
        case .forbidden: node.additional = .forbidden
        case .schema(let inner): node.additional = .node(compile(inner))
        default: node.additional = .allowed
        }
        node.isUnconstrained =
            schema.types.isEmpty && schema.enumValues == nil && schema.properties.isEmpty && schema.items == nil
            && schema.anyOf.isEmpty && schema.format == nil && schema.additionalProperties == nil
            && schema.limits.isEmpty && schema.not == nil && schema.prefixItems.isEmpty && schema.required.isEmpty
            && schema.contains == nil
    }
}

/// Owns a contract's compiled nodes. A recursive schema (a component that refers to itself,
/// directly or through others) makes a cycle of nodes, which reference counting never frees:
/// when the validator that holds the graph goes, the graph cuts every node's links.
package final class PlanGraph: @unchecked Sendable {
    // Safe to share: the nodes are only read after compiling, and cut only here, when no
    // validator can use them any more.
    private let nodes: [PlanNode]

    package init(_ nodes: [PlanNode]) {
        self.nodes = nodes
    }

    deinit {
        for node in nodes {
            node.items = nil
            node.prefixItems = []
            node.contains = nil
            node.properties = []
            node.additional = .allowed
            node.anyOf = []
            node.discriminator = nil
            node.not = nil
            node.delegate = nil
        }
    }
}
