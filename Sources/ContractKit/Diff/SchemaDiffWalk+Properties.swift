import APISchema
import JSONKit

extension SchemaDiffWalk {
    /// Properties gone (or paired with a new one as a rename), newly optional, and new.
    mutating func compareProperties(_ before: Schema, _ after: Schema, path: JSONPath) {
        let oldRequired = Set(before.required)
        let newRequired = Set(after.required)
        let gone = before.properties.filter { after.property(named: $0.name) == nil }
        var added = after.properties.filter { before.property(named: $0.name) == nil }
        for property in before.properties {
            guard let counterpart = after.property(named: property.name) else { continue }
            let required = oldRequired.contains(property.name)
            let propertyPath = path.appending(key: property.name)
            if required && !newRequired.contains(property.name) {
                record(
                    Finding(
                        id: .requiredPropertyMissing, operation: operation, status: status,
                        path: propertyPath.description,
                        expected: "required", actual: "optional", swift: property.schema.swiftProperty,
                        message: "required property '\(property.name)' may now be absent"))
            }
            compare(
                property.schema, counterpart.schema, path: propertyPath,
                site: .property(name: property.name, required: required))
        }
        for property in gone {
            let required = oldRequired.contains(property.name)
            let propertyPath = path.appending(key: property.name).description
            if let rename = renameCandidate(for: property, among: added, goneCount: gone.count) {
                added.removeAll { $0.name == rename.name }
                let similarity = Int((NameSimilarity.score(property.name, rename.name) * 100).rounded())
                record(
                    Finding(
                        id: .propertyProbablyRenamed, operation: operation, status: status, path: propertyPath,
                        expected: "'\(property.name)'", actual: "'\(rename.name)'",
                        swift: property.schema.swiftProperty,
                        message:
                            "'\(property.name)' was removed and '\(rename.name)' added with a compatible type: probably renamed",
                        hint: "name similarity \(similarity)%"))
                continue
            }
            record(
                Finding(
                    id: required ? .requiredPropertyMissing : .optionalPropertyMissing, operation: operation,
                    status: status,
                    path: propertyPath, expected: SchemaDiffWalk.resolve(property.schema, in: old).schema.typeText,
                    actual: "absent", swift: property.schema.swiftProperty,
                    message: "\(required ? "required" : "optional") property '\(property.name)' was removed"))
        }
        for property in added {
            record(
                Finding(
                    id: .propertyUnexpected, operation: operation, status: status,
                    path: path.appending(key: property.name).description, expected: "absent",
                    actual: SchemaDiffWalk.resolve(property.schema, in: new).schema.typeText, swift: nil,
                    message: "property '\(property.name)' was added"))
        }
    }

    private func renameCandidate(
        for property: SchemaProperty, among added: [SchemaProperty], goneCount: Int
    ) -> SchemaProperty? {
        let oldKinds = Set(SchemaDiffWalk.resolve(property.schema, in: old).schema.types.filter { $0 != .null })
        let compatible = added.filter { candidate in
            let newKinds = Set(SchemaDiffWalk.resolve(candidate.schema, in: new).schema.types.filter { $0 != .null })
            return newKinds.isEmpty || oldKinds.isEmpty || !newKinds.isDisjoint(with: oldKinds)
        }
        guard
            let best = compatible.max(by: {
                NameSimilarity.score(property.name, $0.name) < NameSimilarity.score(property.name, $1.name)
            })
        else { return nil }
        if NameSimilarity.score(property.name, best.name) >= 0.5 || (goneCount == 1 && compatible.count == 1) {
            return best
        }
        return nil
    }
}
