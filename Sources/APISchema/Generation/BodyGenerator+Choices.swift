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
            failedBranches += 1
            if first == nil { first = candidate }
        }
        forgetFailures(after: before)
        let kind = schema.branchesExclusive ? "oneOf" : "anyOf"
        fail("no value found that the \(kind) of \(branches.count) branches accepts")
        return first ?? .null
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
