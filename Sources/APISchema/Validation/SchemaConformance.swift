import JSONKit

/// Whether values conform to schemas of one contract, by JSON Schema's rules alone: the one
/// validator (``BodyWalker`` in its `schemaOnly` mode over a ``ValidationPlan``), for callers
/// that check many values against many schemas of the same document (a body generator trying
/// `oneOf` branches, a load-time check of every response schema).
///
/// Its checks share one budget of steps (values checked, trials included): past it, every
/// value fails, and ``isExhausted`` says why, so that many checks of a hostile schema stay
/// bounded in all. Not shared between threads: it compiles schemas as they come.
package final class SchemaConformance {
    private var compiler: ValidationPlan
    private var compiled: [Schema: PlanNode] = [:]
    /// The steps its checks may still take.
    package private(set) var remainingSteps: Int

    /// Checks values against schemas of `contract` (its components resolve `$ref`s), in at
    /// most `budget` steps in all.
    package init(contract: Contract, budget: Int = .max) {
        compiler = ValidationPlan(contract: contract)
        remainingSteps = budget
    }

    /// Whether the budget ran out: checks since then failed for that reason alone.
    package var isExhausted: Bool { remainingSteps <= 0 }

    /// Gives the checks that follow a budget of `steps` (a final check after many trials).
    package func refill(_ steps: Int) {
        remainingSteps = steps
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
        guard remainingSteps > 0 else { return ["$: the validation took too many steps"] }
        let node = plan(for: schema)
        var walker = BodyWalker(rootSwift: nil, schemaOnly: true, stopAtFirst: stopAtFirst)
        let allowed = min(walker.steps, remainingSteps)
        walker.steps = allowed
        walker.walk(value, node)
        remainingSteps -= allowed - max(walker.steps, 0)
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
