import JSONKit

/// Whether values conform to schemas of one contract, by JSON Schema's rules alone: the one
/// validator (``BodyWalker`` in its `schemaOnly` mode over a ``ValidationPlan``), for callers
/// that check many values against many schemas of the same document (a body generator trying
/// `oneOf` branches, a load-time check of every response schema).
///
/// Not shared between threads: it compiles schemas as they come.
package final class SchemaConformance {
    private var compiler: ValidationPlan
    private var compiled: [Schema: PlanNode] = [:]

    /// Checks values against schemas of `contract` (its components resolve `$ref`s).
    package init(contract: Contract) {
        compiler = ValidationPlan(contract: contract)
    }

    deinit {
        // The nodes of a recursive schema refer to each other: cut them when the plan goes.
        _ = PlanGraph(compiler.nodes)
    }

    /// Whether `value` is valid against `schema`.
    package func accepts(_ value: JSONValue, _ schema: Schema) -> Bool {
        firstError(value, schema) == nil
    }

    /// The first violation of `schema` by `value`, as `path: message`, or nil when it is valid.
    package func firstError(_ value: JSONValue, _ schema: Schema) -> String? {
        errors(value, schema, stopAtFirst: true).first
    }

    /// Every violation of `schema` by `value`, as `path: message` lines.
    package func errors(_ value: JSONValue, _ schema: Schema, stopAtFirst: Bool = false) -> [String] {
        let node = plan(for: schema)
        var walker = BodyWalker(rootSwift: nil, schemaOnly: true, stopAtFirst: stopAtFirst)
        walker.walk(value, node)
        // A choice whose trial ran out of steps is not a pass.
        if walker.steps <= 0 && walker.occurrences.isEmpty { return ["$: the validation took too many steps"] }
        return walker.occurrences.map { "\($0.path): \($0.message)" }
    }

    private func plan(for schema: Schema) -> PlanNode {
        if let node = compiled[schema] { return node }
        let node = compiler.compile(schema)
        compiled[schema] = node
        return node
    }
}
