import APISchema
import JSONKit

extension SchemaDiffWalk {
    /// What became stricter from `before` to `after`, after oasdiff's constraint checks: a
    /// bound set where there was none or moved inward (`minimum`, `maximum`, their exclusive
    /// forms, `minLength`/`maxLength`, `minItems`/`maxItems`), a `multipleOf` that the old one is
    /// not a multiple of, a `pattern` added or changed, `uniqueItems` set. On a request this
    /// breaks clients that send what the old contract took; read the other way round
    /// (`tightened(after, before)`) it is what loosened, which breaks clients of a response.
    static func tightened(_ before: SchemaLimits, _ after: SchemaLimits) -> [String] {
        var changes: [String] = []
        func text(_ value: Double?) -> String {
            guard let value else { return "none" }
            return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        }
        func lower(_ name: String, _ old: Double?, _ new: Double?) {
            if let new, old.map({ new > $0 }) ?? true { changes.append("\(name) \(text(old)) → \(text(new))") }
        }
        func upper(_ name: String, _ old: Double?, _ new: Double?) {
            if let new, old.map({ new < $0 }) ?? true { changes.append("\(name) \(text(old)) → \(text(new))") }
        }
        lower("minimum", before.minimum, after.minimum)
        upper("maximum", before.maximum, after.maximum)
        lower("exclusiveMinimum", before.exclusiveMinimum, after.exclusiveMinimum)
        upper("exclusiveMaximum", before.exclusiveMaximum, after.exclusiveMaximum)
        if let new = after.multipleOf, new != 0 {
            let ratio = before.multipleOf.map { $0 / new }
            if ratio.map({ $0 != $0.rounded() }) ?? true {
                changes.append("multipleOf \(text(before.multipleOf)) → \(text(new))")
            }
        }
        lower("minLength", before.minLength.map(Double.init), after.minLength.map(Double.init))
        upper("maxLength", before.maxLength.map(Double.init), after.maxLength.map(Double.init))
        lower("minItems", before.minItems.map(Double.init), after.minItems.map(Double.init))
        upper("maxItems", before.maxItems.map(Double.init), after.maxItems.map(Double.init))
        if let new = after.pattern, new != before.pattern {
            changes.append("pattern \(before.pattern.map { "'\($0)'" } ?? "none") → '\(new)'")
        }
        if after.uniqueItems && !before.uniqueItems { changes.append("uniqueItems false → true") }
        return changes
    }

    /// What became stricter, the limits' changes with `contains` and its counts: a
    /// `contains` added (an array must now hold a matching element), `minContains` raised or
    /// `maxContains` lowered or set where both sides have a `contains` (`minContains` is 1 when
    /// not written). A `contains` schema on both sides is compared as items are.
    static func tightened(_ before: Schema, _ after: Schema) -> [String] {
        var changes = tightened(before.limits, after.limits)
        guard let contains = after.contains else { return changes }
        guard before.contains != nil else {
            changes.append("contains none → \(contains.typeText)")
            return changes
        }
        let oldMinimum = before.limits.minContains ?? 1
        let newMinimum = after.limits.minContains ?? 1
        if newMinimum > oldMinimum { changes.append("minContains \(oldMinimum) → \(newMinimum)") }
        if let new = after.limits.maxContains, before.limits.maxContains.map({ new < $0 }) ?? true {
            changes.append("maxContains \(before.limits.maxContains.map(String.init) ?? "none") → \(new)")
        }
        return changes
    }

    /// `oneOf`/`anyOf` branches of `after` with no counterpart in `before` (by the component
    /// they name, else by their type text), as text.
    static func branchesAdded(_ before: Schema, _ after: Schema) -> [String] {
        // A schema that was not a union at all accepted whatever its own type was: only a
        // union on both sides is compared branch by branch.
        guard !before.anyOf.isEmpty, !after.anyOf.isEmpty else { return [] }
        let known = Set(before.anyOf.map(\.typeText))
        return after.anyOf.map(\.typeText).filter { !known.contains($0) }
    }

    /// Discriminator values whose target changed or that appeared (`added`) or disappeared
    /// (`removed`) from `before` to `after`, as text; empty when neither side has a mapping.
    static func mappingChanges(_ before: Schema, _ after: Schema) -> (added: [String], removed: [String]) {
        guard let old = before.discriminator, let new = after.discriminator else { return ([], []) }
        var added: [String] = []
        var removed: [String] = []
        for (value, target) in new.mapping.sorted(by: { $0.key < $1.key }) {
            guard let previous = old.mapping[value] else {
                if !old.mapping.isEmpty { added.append("'\(value)' → \(target)") }
                continue
            }
            if previous != target { added.append("'\(value)' → \(target) (was \(previous))") }
        }
        for (value, target) in old.mapping.sorted(by: { $0.key < $1.key }) where new.mapping[value] == nil {
            if !new.mapping.isEmpty || old.propertyName != new.propertyName { removed.append("'\(value)' → \(target)") }
        }
        if old.propertyName != new.propertyName {
            added.append("property '\(old.propertyName)' → '\(new.propertyName)'")
        }
        return (added, removed)
    }

    /// Response side: bounds loosened, branches added, discriminator values added or moved.
    mutating func compareResponseConstraints(_ before: Schema, _ after: Schema, path: JSONPath, subject: String) {
        let loosened = SchemaDiffWalk.tightened(after, before)
        if !loosened.isEmpty {
            add(
                .responseBoundLoosened, path, expected: "the old bounds", actual: loosened.joined(separator: ", "),
                swift: nil,
                message: "\(subject) may now be outside the old contract's bounds: \(loosened.joined(separator: ", "))")
        }
        let added = SchemaDiffWalk.branchesAdded(before, after)
        if !added.isEmpty {
            add(
                .responseBranchAdded, path, expected: before.typeText, actual: after.typeText, swift: nil,
                message: "\(subject) may now be \(added.joined(separator: " or ")), a new oneOf/anyOf branch")
        }
        let mapping = SchemaDiffWalk.mappingChanges(before, after)
        if !mapping.added.isEmpty {
            add(
                .responseDiscriminatorMappingChanged, path, expected: "the old discriminator mapping",
                actual: mapping.added.joined(separator: ", "), swift: nil,
                message: "\(subject)'s discriminator gained or moved \(mapping.added.joined(separator: ", "))")
        }
    }

    /// Request side: bounds tightened, branches removed, discriminator values removed or moved.
    mutating func compareRequestConstraints(_ before: Schema, _ after: Schema, path: JSONPath, subject: String) {
        let tightened = SchemaDiffWalk.tightened(before, after)
        if !tightened.isEmpty {
            add(
                .requestBodyBoundTightened, path, expected: "the old bounds", actual: tightened.joined(separator: ", "),
                swift: nil, message: "\(subject) is bounded more tightly: \(tightened.joined(separator: ", "))")
        }
        let removed = SchemaDiffWalk.branchesAdded(after, before)
        if !removed.isEmpty {
            add(
                .requestBodyBranchRemoved, path, expected: before.typeText, actual: after.typeText, swift: nil,
                message: "\(subject) no longer accepts \(removed.joined(separator: " or ")) (a oneOf/anyOf branch)")
        }
        let mapping = SchemaDiffWalk.mappingChanges(before, after)
        let lost = mapping.removed + mapping.added.filter { $0.contains("(was ") || $0.hasPrefix("property") }
        if !lost.isEmpty {
            add(
                .requestBodyDiscriminatorMappingChanged, path, expected: "the old discriminator mapping",
                actual: lost.joined(separator: ", "), swift: nil,
                message: "\(subject)'s discriminator lost or moved \(lost.joined(separator: ", "))")
        }
    }
}
