import APISchema
import JSONKit

/// What a type's `init(from:)` asked a ``RecordingDecoder`` for.
enum RecordedShape {
    case none
    case keyed(ObjectRecord)
    case unkeyed(ArrayRecord)
    case single(SingleValueRecord)
}

/// A coding key as a model's `init(from:)` asked for it: its string value, the JSON key the
/// app's decoder reads it from, and the enum case that declares it (the Swift property's name
/// for synthesised and conventional `CodingKeys`).
struct RecordedKey {
    var codingKey: String
    var jsonKey: String
    var caseName: String?
}

/// The keys an object type read, in order, with the type asked for each.
final class ObjectRecord {
    struct Entry {
        var key: RecordedKey
        var schema: Schema
        /// A nested keyed container's record, whose schema is made with the owner's.
        var nested: ObjectRecord?
        var typeName: String
        var optional: Bool
        var nullable: Bool
    }

    var entries: [Entry] = []
    /// Coding keys tested with `contains(_:)` or `decodeNil(forKey:)`: the type copes with their absence.
    var checkedKeys: Set<String> = []
    var nullCheckedKeys: Set<String> = []
    /// The Swift property names of the type, when an instance could be made to read them from.
    var propertyNames: [String]?
    /// The declared type of each property, by name (from the same instance).
    var propertyTypes: [String: String] = [:]

    /// A schema allowing what either allows: one `type` list for plain kinds, else `anyOf`.
    static func either(_ first: Schema, _ second: Schema) -> Schema {
        func isPlain(_ schema: Schema) -> Bool {
            schema.reference == nil && schema.anyOf.isEmpty && schema.properties.isEmpty && schema.items == nil
                && schema.enumValues == nil && !schema.types.isEmpty
        }
        if isPlain(first) && isPlain(second) {
            var types = first.types
            for kind in second.types where !types.contains(kind) { types.append(kind) }
            return Schema(types: types, format: first.format == second.format ? first.format : nil)
        }
        let branches = (first.anyOf.isEmpty ? [first] : first.anyOf) + [second]
        return Schema(anyOf: branches)
    }

    func record(_ key: RecordedKey, schema: Schema, typeName: String, optional: Bool) {
        let entry = Entry(
            key: key, schema: schema, nested: nil, typeName: typeName, optional: optional,
            nullable: optional || nullCheckedKeys.contains(key.codingKey))
        if let index = entries.firstIndex(where: { $0.key.codingKey == key.codingKey }) {
            let earlier = entries[index]
            guard earlier.typeName != typeName, earlier.schema != schema else {
                entries[index] = entry
                return
            }
            // The same key read as another type too (a code as a number, else as a string): either is read.
            var merged = entry
            merged.schema = ObjectRecord.either(earlier.schema, schema)
            merged.typeName = "\(earlier.typeName) or \(typeName)"
            merged.optional = earlier.optional && optional
            merged.nullable = earlier.nullable || entry.nullable
            entries[index] = merged
        } else {
            entries.append(entry)
        }
    }

    func record(_ key: RecordedKey, nested: ObjectRecord, typeName: String) {
        record(key, schema: Schema(types: [.object]), typeName: typeName, optional: false)
        if let index = entries.firstIndex(where: { $0.key.codingKey == key.codingKey }) {
            entries[index].nested = nested
        }
    }

    func schema(path: String, owner: String? = nil) throws(ContractError) -> Schema {
        var object = Schema(types: [.object])
        for entry in entries {
            let schema = try entry.nested?.schema(path: path + "." + entry.key.jsonKey) ?? entry.schema
            var property = ObjectRecord.wrap(schema, nullable: entry.nullable)
            if let owner {
                let type = "\(entry.typeName)\(entry.optional ? "?" : "")"
                property.swiftProperty =
                    if let name = swiftPropertyName(for: entry.key) {
                        "\(owner).\(name): \(propertyTypes[name] ?? type)"
                    } else {
                        "\(owner), coding key '\(entry.key.codingKey)' (no property of that name): \(type)"
                    }
            }
            object.properties.append(SchemaProperty(name: entry.key.jsonKey, schema: property))
            if !entry.optional && !checkedKeys.contains(entry.key.codingKey) {
                object.required.append(entry.key.jsonKey)
            }
        }
        return object
    }

    /// The Swift property a key is read into: the property named like the coding key's enum
    /// case, else the one named like the coding key. With no instance to read property names
    /// from, the case name (the synthesised rule). Never a guess by position: nil when unknown.
    func swiftPropertyName(for key: RecordedKey) -> String? {
        guard let propertyNames else { return key.caseName }
        if let caseName = key.caseName, propertyNames.contains(caseName) { return caseName }
        if propertyNames.contains(key.codingKey) { return key.codingKey }
        return nil
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
