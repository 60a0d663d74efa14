import APISchema
import ContractModel
import Foundation
import JSONKit

/// Derives JSON schemas from `Decodable` types by running their `init(from:)` against a
/// decoder that records every key and type asked for.
///
/// Object types become named component schemas (referenced with `$ref`); optional properties
/// (`decodeIfPresent`) become nullable and not required; a ``ContractDecodable``'s
/// ``ContractDecodable/requiredKeys`` are required in any case. Keys, `Date`s and `Data` are
/// described as the app's `JSONDecoder` reads them (its key, date and data strategies: a
/// `date-time` string for ISO 8601, a number for seconds since 1970, ...). `URL` is a `uri`
/// string, `UUID` a `uuid` string; `CaseIterable` `RawRepresentable` enums list their raw
/// values, other `RawRepresentable` enums give their raw type.
///
/// ```swift
/// var reflector = SchemaReflector()
/// let pets = try reflector.schema(for: [PetJsonModel].self)   // {"type": "array", "items": {"$ref": ...}}
/// reflector.components                                       // [PetJsonModel: {...}]
/// ```
public struct SchemaReflector {
    private let session: ReflectionSession

    /// Creates a reflector with no components yet, describing JSON as `decoder` reads it.
    public init(decoder: JSONDecoder = ModelRegistry.defaultDecoder()) {
        session = ReflectionSession(conventions: DecodingConventions(decoder: decoder))
    }

    /// The named object schemas reflected so far, in the order first met.
    public var components: [NamedSchema] {
        session.componentOrder.compactMap { name in session.components[name].map { NamedSchema(name: name, schema: $0) }
        }
    }

    /// The schema of a type: inline for scalars and arrays, a `$ref` for object types.
    public func schema<T: Decodable>(for type: T.Type) throws(ContractError) -> Schema {
        try session.reflect(type, path: SwiftTypeName.of(type))
    }
}

/// The state of one reflection: components found so far and the types being reflected.
final class ReflectionSession {
    let conventions: DecodingConventions
    var components: [String: Schema] = [:]
    var componentOrder: [String] = []
    var cache: [ObjectIdentifier: Schema] = [:]
    var inProgress: [ObjectIdentifier: String] = [:]
    /// The object type whose `init(from:)` is running, for messages.
    var currentTypeName: String?

    init(conventions: DecodingConventions) {
        self.conventions = conventions
    }

    func reflect(_ type: any Decodable.Type, path: String) throws(ContractError) -> Schema {
        if let known = KnownTypes.schema(for: type, conventions: conventions) { return known }
        let id = ObjectIdentifier(type)
        if let cached = cache[id] { return cached }
        if let name = inProgress[id] { return .reference(toComponent: name) }
        if let dictionary = type as? any StringKeyedDictionary.Type {
            let values = try reflect(dictionary.valueType, path: path + "[String]")
            return Schema(types: [.object], additionalProperties: .schema(values))
        }
        let typeName = SwiftTypeName.of(type)
        let componentName = SwiftTypeName.componentName(typeName)
        inProgress[id] = componentName
        let outerTypeName = currentTypeName
        currentTypeName = typeName
        defer {
            inProgress[id] = nil
            currentTypeName = outerTypeName
        }
        let decoder = RecordingDecoder(session: self, path: path, codingPath: [])
        var instance: Any?
        do {
            instance = try type.init(from: decoder)
        } catch let error as ContractError {
            throw error
        } catch {
            // The type's own checks (an enum's raw value, a validation) may throw on the
            // placeholder values; what it asked for before that is recorded.
        }
        let schema: Schema
        switch decoder.shape {
        case .none:
            throw .cannotReflect(type: typeName, path: path, reason: "its init(from:) asked the decoder for nothing")
        case .keyed(let record):
            if let instance {
                var names: [String] = []
                for child in Mirror(reflecting: instance).children {
                    guard let label = child.label else { continue }
                    let name = label.hasPrefix("_") ? String(label.dropFirst()) : label
                    names.append(name)
                    // A property wrapper's storage shows as `_name`; its type is the wrapper's.
                    if !label.hasPrefix("_") {
                        record.propertyTypes[name] = SwiftTypeName.of(Swift.type(of: child.value))
                    }
                }
                record.propertyNames = names
            }
            var object = try record.schema(path: path, owner: typeName)
            object.swiftType = typeName
            try applyRequiredKeys(of: type, record: record, to: &object, typeName: typeName)
            components[componentName] = object
            if !componentOrder.contains(componentName) { componentOrder.append(componentName) }
            schema = .reference(toComponent: componentName)
        case .unkeyed(let record):
            var array = record.schema()
            array.swiftType = typeName
            schema = array
        case .single(let record):
            schema = record.schema()
        }
        cache[id] = schema
        return schema
    }

    private func applyRequiredKeys(
        of type: any Decodable.Type, record: ObjectRecord, to object: inout Schema, typeName: String
    ) throws(ContractError) {
        guard let model = type as? any ContractDecodable.Type else { return }
        for key in model.requiredKeys {
            // The key as the model's CodingKeys spell it, as the JSON spells it, or the property.
            let entry = record.entries.first { entry in
                entry.key.codingKey == key || entry.key.jsonKey == key
                    || record.swiftPropertyName(for: entry.key) == key
            }
            guard let jsonKey = entry?.key.jsonKey,
                let position = object.properties.firstIndex(where: { $0.name == jsonKey })
            else {
                throw .requiredKeyNotDecoded(type: typeName, key: key)
            }
            if !object.required.contains(jsonKey) { object.required.append(jsonKey) }
            // The app cannot do without the value, so null is no more acceptable than absence,
            // even when the Swift property is optional (to decode a drifted API at all).
            object.properties[position].schema = ObjectRecord.removingNull(object.properties[position].schema)
        }
        // Keep `required` in property order so the output is stable.
        object.required = object.properties.map(\.name).filter { object.required.contains($0) }
    }
}

/// `[String: Value]`, whose `init(from:)` reads keys it is given rather than keys it knows.
protocol StringKeyedDictionary {
    static var valueType: any Decodable.Type { get }
}

extension Dictionary: StringKeyedDictionary where Key == String, Value: Decodable {
    static var valueType: any Decodable.Type { Value.self }
}
