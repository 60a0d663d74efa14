import APISchema
import JSONKit

extension SchemaDiffWalk {
    /// One constraint that changed, told as the contract has it: `keyword old → new`.
    struct BoundChange: Equatable, CustomStringConvertible {
        let keyword: String
        let old: String
        let new: String
        var description: String { "\(keyword) \(old) → \(new)" }

        init(_ keyword: String, _ old: String, _ new: String) {
            self.keyword = keyword
            self.old = old
            self.new = new
        }
    }

    /// What became stricter from `before` to `after`, after oasdiff's constraint checks: a
    /// bound set where there was none or moved inward (`minimum`, `maximum`, their exclusive
    /// forms, `minLength`/`maxLength`, `minItems`/`maxItems`, `minProperties`/`maxProperties`),
    /// a `multipleOf` that the old one is not a multiple of, a `pattern` added or changed,
    /// `uniqueItems` set. On a request this breaks clients that send what the old contract
    /// took; read the other way round (``loosened(_:_:)``) it breaks clients of a response.
    static func tightened(_ before: SchemaLimits, _ after: SchemaLimits) -> [BoundChange] {
        var changes: [BoundChange] = []
        func text(_ value: Double?) -> String {
            guard let value else { return "none" }
            return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        }
        func lower(_ name: String, _ old: Double?, _ new: Double?) {
            if let new, old.map({ new > $0 }) ?? true { changes.append(BoundChange(name, text(old), text(new))) }
        }
        func upper(_ name: String, _ old: Double?, _ new: Double?) {
            if let new, old.map({ new < $0 }) ?? true { changes.append(BoundChange(name, text(old), text(new))) }
        }
        func count(_ value: Int?) -> Double? { value.map(Double.init) }
        lower("minimum", before.minimum, after.minimum)
        upper("maximum", before.maximum, after.maximum)
        lower("exclusiveMinimum", before.exclusiveMinimum, after.exclusiveMinimum)
        upper("exclusiveMaximum", before.exclusiveMaximum, after.exclusiveMaximum)
        if let new = after.multipleOf, new != 0 {
            let ratio = before.multipleOf.map { $0 / new }
            if ratio.map({ $0 != $0.rounded() }) ?? true {
                changes.append(BoundChange("multipleOf", text(before.multipleOf), text(new)))
            }
        }
        lower("minLength", count(before.minLength), count(after.minLength))
        upper("maxLength", count(before.maxLength), count(after.maxLength))
        lower("minItems", count(before.minItems), count(after.minItems))
        upper("maxItems", count(before.maxItems), count(after.maxItems))
        lower("minProperties", count(before.minProperties), count(after.minProperties))
        upper("maxProperties", count(before.maxProperties), count(after.maxProperties))
        if let new = after.pattern, new != before.pattern {
            changes.append(BoundChange("pattern", before.pattern.map { "'\($0)'" } ?? "none", "'\(new)'"))
        }
        if after.uniqueItems && !before.uniqueItems { changes.append(BoundChange("uniqueItems", "false", "true")) }
        return changes
    }

    /// What became stricter, the limits' changes with `contains` and its counts: a
    /// `contains` added (an array must now hold a matching element), `minContains` raised or
    /// `maxContains` lowered or set where both sides have a `contains` (`minContains` is 1 when
    /// not written). A `contains` schema on both sides is compared as items are.
    static func tightened(_ before: Schema, _ after: Schema) -> [BoundChange] {
        var changes = tightened(before.limits, after.limits)
        guard let contains = after.contains else { return changes }
        guard before.contains != nil else {
            changes.append(BoundChange("contains", "none", contains.typeText))
            return changes
        }
        let oldMinimum = before.limits.minContains ?? 1
        let newMinimum = after.limits.minContains ?? 1
        if newMinimum > oldMinimum { changes.append(BoundChange("minContains", "\(oldMinimum)", "\(newMinimum)")) }
        if let new = after.limits.maxContains, before.limits.maxContains.map({ new < $0 }) ?? true {
            changes.append(BoundChange("maxContains", before.limits.maxContains.map(String.init) ?? "none", "\(new)"))
        }
        return changes
    }

    /// What loosened from `before` to `after`: the changes that tighten from `after` to
    /// `before` (a bound removed or moved outward, a pattern removed or changed, `uniqueItems`
    /// or `contains` dropped), each told from `before` to `after`.
    static func loosened(_ before: Schema, _ after: Schema) -> [BoundChange] {
        tightened(after, before).map { BoundChange($0.keyword, $0.new, $0.old) }
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
        let loosened = SchemaDiffWalk.loosened(before, after).map(\.description).joined(separator: ", ")
        if !loosened.isEmpty {
            add(
                .responseBoundLoosened, path, expected: "the old bounds", actual: loosened, swift: nil,
                message: "\(subject) may now be outside the old contract's bounds: \(loosened)")
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
        let tightened = SchemaDiffWalk.tightened(before, after).map(\.description).joined(separator: ", ")
        if !tightened.isEmpty {
            add(
                .requestBodyBoundTightened, path, expected: "the old bounds", actual: tightened, swift: nil,
                message: "\(subject) is bounded more tightly: \(tightened)")
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
