import JSONKit

extension BodyGenerator {
    /// One branch of a choice.
    struct Branch {
        var schema: Schema
        /// The discriminator's value that names it, when there is a discriminator.
        var tag: String?
    }

    /// `oneOf`/`anyOf`: a value of one branch, with the properties written beside the choice,
    /// that the whole schema accepts (for `oneOf`: exactly one branch matches); the next
    /// branch is tried when it does not. With a `discriminator`, its property is set to the
    /// mapping's key for the branch, or the branch's component name.
    mutating func choice(_ schema: Schema, depth: Int) -> JSONValue {
        var own = schema
        own.anyOf = []
        own.discriminator = nil
        own.examples = []
        own.defaultValue = nil
        let branches = self.branches(of: schema)
        let start = varied ? below(branches.count) : 0
        let before = failures.count
        var first: JSONValue?
        // The values valid against their branch that the `oneOf` rejected: several branches
        // accepted them.
        var ambiguous = 0
        let wasVaried = varied
        defer { varied = wasVaried }
        // Each branch in turn, then again with varied values (a value both branches of a
        // `oneOf` accept is one neither may give).
        for attempt in 0..<min(branches.count * 3, 12) {
            guard failedBranches < Self.maximumFailedBranches else {
                fail("the choices tried more than \(Self.maximumFailedBranches) branches in vain")
                break
            }
            let branch = branches[(start + attempt) % branches.count]
            varied = wasVaried || attempt >= branches.count
            var combined = own
            combined.allOf = [branch.schema]
            let attemptFailures = failures.count
            var candidate = value(for: combined, depth: depth + 1)
            if let tag = branch.tag, let property = schema.discriminator?.propertyName,
                case .object(var members) = candidate
            {
                members[property] = .string(tag)
                candidate = .object(members)
            }
            if failures.count == attemptFailures && conformance.accepts(candidate, schema) {
                forgetFailures(after: before)
                return candidate
            }
            // Valid against its branch but not accepted: for a `oneOf`, another branch accepts
            // it too; a value only this branch accepts is looked for.
            if failures.count == attemptFailures, schema.branchesExclusive, schema.discriminator == nil,
                conformance.accepts(candidate, combined)
            {
                ambiguous += 1
                if attempt < branches.count,
                    let exclusive = exclusiveValue(candidate, branch: combined, of: schema, depth: depth)
                {
                    forgetFailures(after: before)
                    return exclusive
                }
            }
            failedBranches += 1
            if first == nil { first = candidate }
        }
        forgetFailures(after: before)
        let kind = schema.branchesExclusive ? "oneOf" : "anyOf"
        if ambiguous > 0 {
            fail(
                "no value found that exactly one of the \(branches.count) branches of the oneOf accepts: "
                    + "\(ambiguous) values tried matched several (the branches overlap)")
        } else {
            fail("no value found that the \(kind) of \(branches.count) branches accepts")
        }
        return first ?? .null
    }

    /// A value of `branch` that no other branch of the `oneOf` accepts, found from `candidate`
    /// (valid against `branch` and at least one other): an object with a member another
    /// branch's property rejects, without a property another branch requires, or with one
    /// more member; the branch's values at its upper and lower bounds; its enum values; a value
    /// of the branch outside the other branches (`not`). At most ``maximumExclusiveTrials``
    /// values are tried; nil when none is accepted.
    private mutating func exclusiveValue(
        _ candidate: JSONValue, branch: Schema, of schema: Schema, depth: Int
    ) -> JSONValue? {
        var trials = 0
        func accepted(_ value: JSONValue) -> Bool {
            guard trials < Self.maximumExclusiveTrials, !conformance.isExhausted else { return false }
            trials += 1
            return conformance.accepts(value, schema)
        }
        let flat = contract.flattened(branch)
        var own = schema
        own.anyOf = []
        own.discriminator = nil
        own.examples = []
        own.defaultValue = nil
        let others = schema.anyOf.compactMap { alternative -> Schema? in
            var combined = own
            combined.allOf = [alternative]
            guard conformance.accepts(candidate, combined) else { return nil }
            return contract.flattened(combined)
        }
        if case .object(let members) = candidate {
            // A value of each kind, for a property another branch constrains.
            let foreign: [JSONValue] = [.string(""), .bool(false), .int(0), .array([]), .object(JSONObject()), .null]
            for other in others.prefix(4) {
                for property in other.properties.prefix(8) where flat.property(named: property.name) == nil {
                    for value in foreign {
                        var adjusted = members
                        adjusted[property.name] = value
                        if accepted(.object(adjusted)) { return .object(adjusted) }
                    }
                }
                for name in other.required.prefix(8) where members[name] != nil && !flat.required.contains(name) {
                    var adjusted = members
                    adjusted[name] = nil
                    if accepted(.object(adjusted)) { return .object(adjusted) }
                }
            }
            var key = "additionalProp1"
            while members[key] != nil { key += "_" }
            var extended = members
            extended[key] = .string("string")
            if accepted(.object(extended)) { return .object(extended) }
        }
        for value in flat.enumValues?.prefix(16) ?? [] where accepted(value) { return value }
        let wasVaried = varied
        defer { varied = wasVaried }
        var pinned = [Self.pinned(flat, high: true), Self.pinned(flat, high: false)]
        // Outside every other branch: `not` is generated kind by kind, with varied values.
        let rest = schema.anyOf.map { alternative in
            var combined = own
            combined.allOf = [alternative]
            return combined
        }.filter { contract.flattened($0) != flat }
        if !rest.isEmpty {
            var outside = Schema()
            outside.allOf = [branch]
            outside.not = Schema(anyOf: rest)
            pinned.append(outside)
        }
        for (index, variant) in pinned.enumerated() {
            varied = wasVaried || index >= 2
            let mark = failures.count
            let made = value(for: variant, depth: depth + 1)
            let failed = failures.count > mark
            forgetFailures(after: mark)
            if !failed && accepted(made) { return made }
        }
        return nil
    }

    /// The schema with its bounds pinned to one end: the longest (or shortest) strings, the
    /// largest (or smallest) numbers, the most (or fewest) elements and members.
    static func pinned(_ schema: Schema, high: Bool) -> Schema {
        var pinned = schema
        var limits = schema.limits
        if high {
            if let length = limits.maxLength { limits.minLength = length }
            if let maximum = limits.maximum { limits.minimum = maximum }
            if let items = limits.maxItems { limits.minItems = items }
            if let count = limits.maxProperties { limits.minProperties = count }
        } else {
            if let length = limits.minLength { limits.maxLength = length } else { limits.maxLength = 0 }
            if let minimum = limits.minimum { limits.maximum = minimum }
            if let items = limits.minItems { limits.maxItems = items }
            if let count = limits.minProperties { limits.maxProperties = count }
        }
        pinned.limits = limits
        return pinned
    }

    /// The branches in order: with a discriminator's mapping, one per mapped value (then the
    /// referenced components it does not map, under their own names).
    private func branches(of schema: Schema) -> [Branch] {
        guard let discriminator = schema.discriminator else { return schema.anyOf.map { Branch(schema: $0) } }
        var branches: [Branch] = []
        var mapped: Set<String> = []
        for (value, target) in discriminator.mapping.sorted(by: { $0.key < $1.key }) {
            branches.append(Branch(schema: Schema(reference: target), tag: value))
            mapped.insert(target)
        }
        for alternative in schema.anyOf {
            if let reference = alternative.reference, mapped.contains(reference) { continue }
            branches.append(Branch(schema: alternative, tag: alternative.referencedComponent))
        }
        // Listed branches first, in the document's order, when the mapping covers them.
        let order = schema.anyOf.compactMap(\.reference)
        return branches.sorted { lhs, rhs in
            let left = lhs.schema.reference.flatMap { order.firstIndex(of: $0) } ?? order.count
            let right = rhs.schema.reference.flatMap { order.firstIndex(of: $0) } ?? order.count
            return left < right
        }
    }
}
