import HTTPCore
import JSONKit

/// Makes a JSON value valid against a schema, deterministically (the generator's seed) and
/// within fixed bounds: nesting is cut off at ``maximumDepth``, arrays hold at most
/// ``maximumItems`` elements unless `minItems` asks for more, and a whole body at most
/// ``maximumNodes`` values, whatever the schema asks for. What it cannot satisfy (a pattern
/// with no match of the allowed length, bounds that exclude every value, a recursion that
/// every value must continue) is listed in ``failures``; ``GeneratedBody`` then refuses the body.
package struct BodyGenerator {
    /// How deep values nest; deeper, optional properties and array elements are left out.
    static let maximumDepth = 6
    /// The most elements an array gets when `minItems` does not ask for more.
    static let maximumItems = 2
    /// The most elements `minItems` or `minProperties` can obtain.
    static let maximumRequiredItems = 256
    /// The values in one body after which objects and arrays are left empty.
    static let maximumNodes = 2000
    /// The most optional properties one object gets.
    static let maximumOptionalProperties = 64
    /// Past this depth even required members are cut short (a schema that requires itself).
    static let hardDepth = 16
    /// The longest string made (`minLength` beyond it cannot be met).
    static let maximumStringLength = 4096
    /// The validation steps one body's trials (choices, `not`, examples, enum values) may take
    /// in all: choices that nest choices of themselves would otherwise multiply them.
    static let maximumTrialSteps = 30_000
    /// The steps of the final check of a whole body.
    static let maximumValidationSteps = 100_000
    /// The branches one body's choices may try in vain in all (a branch whose value the
    /// choice rejects, or whose value could not be made).
    static let maximumFailedBranches = 32
    /// The values one `oneOf` may try to find a value only one branch accepts.
    static let maximumExclusiveTrials = 48
    /// The values one array's `contains` may make in all to reach `minContains`/`maxContains`.
    static let maximumContainsAttempts = maximumRequiredItems + 64

    let contract: Contract
    var random: SplitMix64
    /// Whether choices vary with the seed (enum values, branches, plain strings), as a dynamic
    /// answer's do; a fixed answer takes the first that fits.
    var varied: Bool
    /// The one validator, for the choices that need a trial (`oneOf`, `not`, examples).
    let conformance: SchemaConformance
    /// What could not be satisfied, in the order met.
    private(set) var failures: [String] = []
    var nodes = 0
    /// The branches tried in vain so far.
    var failedBranches = 0
    /// The name of the property whose value is being made (an array's items keep their
    /// array's), which a string follows when it tells what it holds (`email`, `city`).
    var propertyName: String?

    /// A generator over `contract`; `conformance`, when given, is a checker of the same
    /// contract shared with other generators one after another (its budget is refilled here),
    /// so that the schemas it compiled are compiled once for them all.
    init(contract: Contract, random: SplitMix64, varied: Bool = false, conformance: SchemaConformance? = nil) {
        self.contract = contract
        self.random = random
        self.varied = varied
        if let conformance {
            conformance.refill(Self.maximumTrialSteps)
            self.conformance = conformance
        } else {
            self.conformance = SchemaConformance(contract: contract, budget: Self.maximumTrialSteps)
        }
    }

    package init(contract: Contract, seed: String) {
        self.init(contract: contract, random: SplitMix64(seed: seed))
    }

    mutating func fail(_ reason: String) {
        if failures.count < 16 { failures.append(reason) }
    }

    /// Forgets failures after `count` (an optional member that is left out instead).
    mutating func forgetFailures(after count: Int) {
        failures.removeLast(failures.count - count)
    }

    /// A random number below `bound` (0 when `bound` is 0).
    mutating func below(_ bound: Int) -> Int {
        bound <= 1 ? 0 : Int(random.next() % UInt64(bound))
    }

    /// A value for a property's schema: strings follow the property's name.
    mutating func value(for written: Schema, named name: String?, depth: Int) -> JSONValue {
        let outer = propertyName
        propertyName = name
        defer { propertyName = outer }
        return value(for: written, depth: depth)
    }

    /// A value for the schema: its own example, enum or generated value.
    package mutating func value(for written: Schema, depth: Int = 0) -> JSONValue {
        nodes += 1
        guard depth < Self.hardDepth else {
            fail("values nest deeper than \(Self.hardDepth) (a schema that requires itself)")
            return .null
        }
        guard !conformance.isExhausted else {
            fail("checking the choices took more than \(Self.maximumTrialSteps) validation steps")
            return .null
        }
        guard nodes < Self.maximumNodes * 4 else {
            fail("the schema requires more than \(Self.maximumNodes * 4) values")
            return .null
        }
        guard var schema = contract.resolve(written) else {
            fail("'\(written.reference ?? "")' names no schema")
            return .null
        }
        // Flattened through the reference as written, so a recursive `allOf` ends.
        if !schema.allOf.isEmpty || !written.allOf.isEmpty { schema = contract.flattened(written) }
        if !varied, let documented = documentedValue(schema) { return documented }
        if let values = schema.enumValues { return enumValue(values, schema) }
        if !schema.anyOf.isEmpty { return choice(schema, depth: depth) }
        guard let not = schema.not else { return plainValue(schema, depth: depth) }
        if not == Schema() {
            fail("the schema allows no value (a `false` schema, or an `allOf` whose parts share no type)")
            return .null
        }
        let candidate = plainValue(schema, depth: depth)
        return conformance.accepts(candidate, not) ? outside(not, of: schema, depth: depth) : candidate
    }

    /// `not`: a value of the rest of the schema that `not` rejects, tried kind by kind.
    private mutating func outside(_ not: Schema, of schema: Schema, depth: Int) -> JSONValue {
        let kinds: [JSONKind] =
            schema.types.isEmpty ? [.integer, .boolean, .object, .array, .null, .string] : schema.types
        let wasVaried = varied
        varied = true
        defer { varied = wasVaried }
        var candidate = JSONValue.null
        for attempt in 0..<8 {
            var other = schema
            other.types = [kinds[attempt % kinds.count]]
            candidate = plainValue(other, depth: depth)
            if !conformance.accepts(candidate, not) { return candidate }
        }
        fail("no value of the schema found outside its 'not'")
        return candidate
    }

    /// The schema's first example or default that is valid against it.
    private func documentedValue(_ schema: Schema) -> JSONValue? {
        for candidate in schema.examples.prefix(4) + (schema.defaultValue.map { [$0] } ?? [])
        where conformance.accepts(candidate, schema) {
            return candidate
        }
        return nil
    }

    private mutating func enumValue(_ values: [JSONValue], _ schema: Schema) -> JSONValue {
        var rest = schema
        rest.enumValues = nil
        rest.examples = []
        rest.defaultValue = nil
        let start = varied ? below(values.count) : 0
        for offset in values.indices.prefix(64) {
            let value = values[(start + offset) % values.count]
            if conformance.accepts(value, rest) { return value }
        }
        fail(
            "no value of the enum \(JSONValue.array(Array(values.prefix(4))).serialized()) fits the rest of the schema")
        return values.first ?? .null
    }

    /// A value of one of the schema's kinds, ignoring its choices and `not`.
    private mutating func plainValue(_ schema: Schema, depth: Int) -> JSONValue {
        // Past the soft bounds only what the schema requires is made; past the node budget,
        // nothing more at all (a schema whose required members multiply stays bounded).
        let exhausted = depth >= Self.maximumDepth || nodes >= Self.maximumNodes / 2
        if exhausted && schema.isNullable { return .null }
        switch kind(of: schema) {
        case .null: return .null
        case .boolean: return .bool(random.next() % 2 == 0)
        case .integer: return integer(schema.limits)
        case .number: return number(schema.limits)
        case .string: return .string(string(schema))
        case .array: return array(schema, depth: depth, exhausted: exhausted)
        case .object: return object(schema, depth: depth, exhausted: exhausted)
        }
    }

    /// The kind to make: one of `type`'s (at random when varied), else the one its keywords imply.
    mutating func kind(of schema: Schema) -> JSONKind {
        let kinds = schema.nonNullTypes
        if !kinds.isEmpty {
            return varied ? kinds[below(kinds.count)] : kinds[0]
        }
        if schema.types.contains(.null) { return .null }
        if !schema.properties.isEmpty || !schema.required.isEmpty || schema.additionalProperties != nil
            || schema.limits.minProperties != nil || schema.limits.maxProperties != nil
        {
            return .object
        }
        if schema.items != nil || !schema.prefixItems.isEmpty || schema.contains != nil || schema.limits.minItems != nil
            || schema.limits.maxItems != nil
        {
            return .array
        }
        if schema.limits.boundsNumbers { return .number }
        return .string
    }
}
