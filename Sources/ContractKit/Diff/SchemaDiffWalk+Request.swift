import APISchema
import JSONKit

extension SchemaDiffWalk {
    /// Compares a request body's schema, seen from a client that sends what the old one
    /// accepted: a new required property, a property made required, a narrowed type or
    /// format, a lost enum value or null no longer allowed break it.
    mutating func compareRequest(_ before: Schema, _ after: Schema, path written: JSONPath, site: Site) {
        let oldSide = SchemaDiffWalk.resolve(before, in: old)
        let newSide = SchemaDiffWalk.resolve(after, in: new)
        var path = written
        let (entered, saved) = enter(oldSide, newSide, path: &path, direction: "request")
        guard entered else { return }
        depth += 1
        defer {
            depth -= 1
            component = saved
        }
        let subject = SchemaDiffWalk.subject(site)
        let oldSchema = oldSide.schema
        let newSchema = newSide.schema
        if let change = SchemaDiffWalk.narrowing(oldSchema, newSchema) {
            add(
                .requestBodyPropertyTypeChanged, path, expected: oldSchema.typeText, actual: newSchema.typeText,
                swift: nil, message: "\(subject) \(change)")
            return
        }
        if oldSide.nullable && !newSide.nullable {
            add(
                .requestBodyPropertyTypeChanged, path, expected: oldSchema.typeText + " or null",
                actual: newSchema.typeText, swift: nil, message: "\(subject) may no longer be null")
        }
        if let removed = SchemaDiffWalk.removedEnumValues(oldSchema, newSchema) {
            add(
                .requestBodyEnumValueRemoved, path, expected: oldSchema.typeText, actual: newSchema.typeText,
                swift: nil, message: "\(subject) no longer accepts \(removed)")
        }
        compareRequestConstraints(oldSchema, newSchema, path: path, subject: subject)
        if let oldItems = oldSchema.items, let newItems = newSchema.items {
            compareRequest(oldItems, newItems, path: path.appending(index: 0).generalized, site: .item)
        }
        // A `contains` narrowed refuses arrays whose only matching element the old one took.
        if let oldContains = oldSchema.contains, let newContains = newSchema.contains {
            compareRequest(oldContains, newContains, path: path.appending(index: 0).generalized, site: .item)
        }
        for (oldBranch, newBranch) in SchemaDiffWalk.pairedBranches(oldSchema, newSchema) {
            compareRequest(oldBranch, newBranch, path: path, site: site)
        }
        let oldRequired = Set(oldSchema.required)
        for property in newSchema.properties {
            let required = newSchema.required.contains(property.name)
            // readOnly properties are sent by the server only: never required of a client.
            let readOnly = SchemaDiffWalk.resolve(property.schema, in: new).schema.readOnly
            let propertyPath = path.appending(key: property.name)
            guard let counterpart = oldSchema.property(named: property.name) else {
                if required && !readOnly {
                    add(
                        .requestBodyPropertyAddedRequired, propertyPath, expected: "absent",
                        actual: "required \(SchemaDiffWalk.resolve(property.schema, in: new).schema.typeText)",
                        swift: nil, message: "required property '\(property.name)' was added to the request body")
                }
                continue
            }
            if required && !readOnly && !oldRequired.contains(property.name) {
                add(
                    .requestBodyPropertyBecameRequired, propertyPath, expected: "optional", actual: "required",
                    swift: nil, message: "request body property '\(property.name)' became required")
            }
            compareRequest(
                counterpart.schema, property.schema, path: propertyPath,
                site: .property(name: property.name, required: required))
        }
        for name in newSchema.required
        where !oldRequired.contains(name) && newSchema.property(named: name) == nil {
            add(
                .requestBodyPropertyAddedRequired, path.appending(key: name), expected: "optional",
                actual: "required", swift: nil, message: "request body property '\(name)' became required")
        }
    }

    /// What narrowed from `before` to `after` for a value a client sends: a kind the new
    /// schema no longer takes (an integer still fits a number), or a new or other format.
    static func narrowing(_ before: Schema, _ after: Schema) -> String? {
        let oldKinds = before.types.filter { $0 != .null }
        let newKinds = after.types.filter { $0 != .null }
        if !newKinds.isEmpty {
            let lost =
                oldKinds.isEmpty
                || oldKinds.contains { kind in
                    !newKinds.contains(kind) && !(kind == .integer && newKinds.contains(.number))
                }
            if lost { return "changed type from \(before.typeText) to \(after.typeText)" }
        }
        if let format = after.format, before.format != format {
            return "changed format from \(before.format ?? "none") to \(format)"
        }
        return nil
    }

    /// The enum values `before` allowed that `after` does not (all values, when `after` newly
    /// has an enum), as text; nil when none was lost.
    static func removedEnumValues(_ before: Schema, _ after: Schema) -> String? {
        guard let newValues = after.enumValues else { return nil }
        guard let oldValues = before.enumValues else { return "values outside \(after.typeText)" }
        let removed = oldValues.filter { value in !newValues.contains { $0.isEquivalent(to: value) } }
        return removed.isEmpty ? nil : removed.map { $0.serialized() }.joined(separator: ", ")
    }
}
