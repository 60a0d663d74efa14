import JSONKit

/// A standalone JSON Schema (a stub's `matchesJsonSchema`) checked once (``JSONSchemaCheck``),
/// read into the schema model (``StandaloneSchema``) and compiled (``ValidationPlan``): values
/// are validated by the same ``BodyWalker`` as contract checks, counting JSON Schema's
/// violations only. Bounded as contract checks are: schemas nest at most 64 deep and choices
/// that lead back to themselves end.
package struct JSONSchemaValidator: Sendable {
    let plan: PlanNode
    /// Frees the nodes' cycles when the last copy of the validator goes.
    let graph: PlanGraph
    /// How many properties the schema defines, anywhere: WireMock's distance is the number of
    /// errors over it.
    let propertyCount: Int

    package init(_ schema: JSONValue) throws(JSONSchemaError) {
        try JSONSchemaCheck.check(schema)
        let standalone: StandaloneSchema
        do {
            standalone = try StandaloneSchema(schema)
        } catch {
            throw JSONSchemaError(path: "#", reason: error.description)
        }
        var compiler = ValidationPlan(contract: standalone.contract)
        plan = compiler.compile(standalone.root)
        graph = PlanGraph(compiler.nodes)
        propertyCount = Self.countProperties(schema, depth: 0)
    }

    /// A validator for a schema of a contract (a parameter's, a request body's), its references
    /// resolved against the contract's components: compiled once, walked per value.
    package init(schema: Schema, in contract: Contract) {
        var compiler = ValidationPlan(contract: contract)
        plan = compiler.compile(schema)
        graph = PlanGraph(compiler.nodes)
        propertyCount = 0
    }

    /// The value's violations against the schema, each with where, what was expected and what
    /// was found (at most `limit`; the walk itself is bounded by ``BodyWalker/maximumSteps``).
    package func violations(_ value: JSONValue, limit: Int) -> [SchemaViolation] {
        var walker = BodyWalker(rootSwift: nil, schemaOnly: true, stopAtFirst: limit <= 1)
        walker.walk(value, plan)
        if walker.steps <= 0 && walker.occurrences.isEmpty {
            return [
                SchemaViolation(
                    path: "$", expected: "a value checked in at most \(BodyWalker.maximumSteps) steps",
                    found: "more", message: "the validation took too many steps")
            ]
        }
        return walker.occurrences.prefix(limit).map { occurrence in
            SchemaViolation(
                path: occurrence.path.description, expected: occurrence.expected, found: occurrence.actual,
                message: occurrence.message)
        }
    }

    /// Whether `value` is valid, its walk taking at most `budget` steps (and each walk at most
    /// ``BodyWalker/maximumSteps``), the steps taken spent from `budget`: many checks share one
    /// bound. Past the budget, every value fails.
    package func accepts(_ value: JSONValue, budget: inout Int) -> Bool {
        guard budget > 0 else { return false }
        var walker = BodyWalker(rootSwift: nil, schemaOnly: true, stopAtFirst: true)
        let allowed = min(walker.steps, budget)
        walker.steps = allowed
        walker.walk(value, plan)
        budget -= allowed - max(walker.steps, 0)
        // A choice whose trial ran out of steps is not a pass.
        return walker.occurrences.isEmpty && walker.steps > 0
    }

    private static func countProperties(_ schema: JSONValue, depth: Int) -> Int {
        guard depth < JSONSchemaCheck.maximumDepth else { return 0 }
        switch schema {
        case .object(let object):
            let own = object["properties"].flatMap { value -> Int? in
                if case .object(let properties) = value { return properties.count }
                return nil
            }
            return (own ?? 0) + object.members.reduce(0) { $0 + countProperties($1.value, depth: depth + 1) }
        case .array(let elements): return elements.reduce(0) { $0 + countProperties($1, depth: depth + 1) }
        default: return 0
        }
    }

    /// The value's violations against the schema, as `path: message` lines: the first only when
    /// `stopAtFirst`; a violation repeated across array elements is one line per element.
    package func errors(_ value: JSONValue, stopAtFirst: Bool) -> [String] {
        var walker = BodyWalker(rootSwift: nil, schemaOnly: true, stopAtFirst: stopAtFirst)
        walker.walk(value, plan)
        // A choice whose trial ran out of steps is not a pass.
        if walker.steps <= 0 && walker.occurrences.isEmpty { return ["$: the validation took too many steps"] }
        return walker.occurrences.flatMap { occurrence in
            Array(repeating: "\(occurrence.path): \(occurrence.message)", count: occurrence.count)
        }
    }

    /// The errors of a request's text (`json`: the text already parsed, when it was): the text as
    /// JSON, or as a JSON string when it is not JSON; a number, Boolean or null that fails is
    /// tried again as the string it was written as (WireMock's coercion).
    package func errors(_ text: String, json: JSONValue?, stopAtFirst: Bool) -> [String] {
        let value = json ?? (try? JSONValue(parsing: text)) ?? .string(text)
        let found = errors(value, stopAtFirst: stopAtFirst)
        switch value {
        case .int, .number, .bool, .null: return found.isEmpty ? found : errors(.string(text), stopAtFirst: stopAtFirst)
        default: return found
        }
    }

    /// WireMock's distance: the errors over the properties the schema defines (1 when it
    /// defines none).
    package func distance(_ text: String) -> Double {
        let count = errors(text, json: nil, stopAtFirst: false).count
        guard propertyCount > 0 else { return count == 0 ? 0 : 1 }
        return min(1, Double(count) / Double(propertyCount))
    }
}
