import JSONKit

/// What a type's `init(from:)` asked a ``RecordingDecoder`` for.
enum RecordedShape {
    case none
    case keyed(ObjectRecord)
    case unkeyed(ArrayRecord)
    case single(SingleValueRecord)
}

/// The keys an object type read, in order, with the type asked for each.
final class ObjectRecord {
    struct Entry {
        var key: String
        var schema: Schema
        var typeName: String
        var optional: Bool
        var nullable: Bool
    }

    var entries: [Entry] = []
    /// Keys tested with `contains(_:)` or `decodeNil(forKey:)`: the type copes with their absence.
    var checkedKeys: Set<String> = []
    var nullCheckedKeys: Set<String> = []
    /// The Swift property names of the type, in declaration order, when known.
    var propertyNames: [String] = []

    func record(key: String, schema: Schema, typeName: String, optional: Bool) {
        let entry = Entry(
            key: key, schema: schema, typeName: typeName, optional: optional,
            nullable: optional || nullCheckedKeys.contains(key))
        if let index = entries.firstIndex(where: { $0.key == key }) {
            entries[index] = entry
        } else {
            entries.append(entry)
        }
    }

    func schema(path: String, owner: String? = nil) throws(ContractError) -> Schema {
        var object = Schema(types: [.object])
        for (position, entry) in entries.enumerated() {
            var property = ObjectRecord.wrap(entry.schema, nullable: entry.nullable)
            if let owner {
                let swiftName = swiftPropertyName(for: entry.key, position: position)
                property.swiftProperty = "\(owner).\(swiftName): \(entry.typeName)\(entry.optional ? "?" : "")"
            }
            object.properties.append(SchemaProperty(name: entry.key, schema: property))
            if !entry.optional && !checkedKeys.contains(entry.key) { object.required.append(entry.key) }
        }
        return object
    }

    /// The Swift name for a key: the property of that name, else the property in the same
    /// position when the counts agree (a `CodingKeys` rename), else the key itself.
    private func swiftPropertyName(for key: String, position: Int) -> String {
        if propertyNames.contains(key) { return key }
        if propertyNames.count == entries.count { return propertyNames[position] }
        return key
    }

    /// The schema without `null`: out of its `type` list and `enum`, or the other branch of an
    /// `anyOf [X, null]`.
    static func removingNull(_ schema: Schema) -> Schema {
        let nonNull = schema.anyOf.filter { $0.types != [.null] }
        if !schema.anyOf.isEmpty && schema.types.isEmpty && nonNull.count == 1 {
            var inner = nonNull[0]
            inner.swiftProperty = schema.swiftProperty
            return inner
        }
        var result = schema
        result.types.removeAll { $0 == .null }
        result.enumValues = result.enumValues?.filter { $0 != .null }
        return result
    }

    /// Adds `null` to a schema: to its `type` list, or as `anyOf` beside a `$ref`.
    static func wrap(_ schema: Schema, nullable: Bool) -> Schema {
        guard nullable else { return schema }
        if schema.reference != nil || !schema.anyOf.isEmpty || schema.types.isEmpty {
            if schema.types.isEmpty && schema.reference == nil && schema.anyOf.isEmpty { return schema }
            return Schema(anyOf: [schema, Schema(types: [.null])])
        }
        var result = schema
        if !result.types.contains(.null) { result.types.append(.null) }
        if var values = result.enumValues, !values.contains(.null) {
            values.append(.null)
            result.enumValues = values
        }
        return result
    }
}

/// The element types an array-like type read.
final class ArrayRecord {
    var elements: [Schema] = []
    var nullable = false

    func schema() -> Schema {
        var distinct: [Schema] = []
        for element in elements where !distinct.contains(element) { distinct.append(element) }
        let items: Schema? =
            switch distinct.count {
            case 0: nil
            case 1: distinct[0]
            default: Schema(anyOf: distinct)
            }
        return Schema(types: [.array], items: items.map { ObjectRecord.wrap($0, nullable: nullable) })
    }
}

/// The one value a single-value type read, and whether it checked for null first.
final class SingleValueRecord {
    var value: Schema?
    var nullable = false

    func schema() -> Schema {
        ObjectRecord.wrap(value ?? Schema(), nullable: nullable)
    }
}
