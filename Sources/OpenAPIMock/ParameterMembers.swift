import APISchema
import JSONKit

/// The members an object-typed parameter (or form field) documents, compiled once: for each
/// property the JSON kinds its text is read as, and the members of a nested object, so that a
/// request's pairs are read with one table look-up each, never a scan of the properties.
final class ParameterMembers: Sendable {
    /// How deep nested members are compiled (`filter[a][b]`); deeper ones are read as text.
    static let maximumDepth = 4

    /// The schema's kinds, null left out (empty: any).
    let kinds: [JSONKind]
    /// The kinds of an array's items.
    let itemKinds: [JSONKind]
    /// Whether the schema is a string of `format: binary` (a file's bytes).
    let isBinary: Bool
    /// The documented properties, by name.
    let properties: [String: ParameterMembers]
    /// What a member not listed in `properties` is read as; nil when the schema lists
    /// properties and no `additionalProperties` schema.
    let additional: ParameterMembers?

    init(_ written: Schema, in contract: Contract, depth: Int = 0) {
        let schema = contract.resolve(written).map { $0.allOf.isEmpty ? $0 : contract.flattened(written) } ?? written
        kinds = schema.nonNullTypes
        itemKinds = schema.items.flatMap { contract.resolve($0)?.nonNullTypes } ?? []
        isBinary = schema.format == "binary" || schema.items.flatMap { contract.resolve($0)?.format } == "binary"
        guard depth < Self.maximumDepth else {
            properties = [:]
            additional = nil
            return
        }
        var properties: [String: ParameterMembers] = [:]
        for property in schema.properties where properties[property.name] == nil {
            properties[property.name] = ParameterMembers(property.schema, in: contract, depth: depth + 1)
        }
        self.properties = properties
        switch schema.additionalProperties {
        case .schema(let inner): additional = ParameterMembers(inner, in: contract, depth: depth + 1)
        case .forbidden: additional = nil
        default:
            additional = schema.properties.isEmpty ? ParameterMembers(Schema(), in: contract, depth: depth + 1) : nil
        }
    }

    /// Whether a value of this schema is an array.
    var isArray: Bool { kinds.contains(.array) }

    /// The compiled member of that name, or nil when the schema does not take it.
    func member(_ name: String) -> ParameterMembers? {
        properties[name] ?? additional
    }

    /// An object built from `(member path, text)` pairs in order: each text read as its
    /// member's kinds, an array member taking every occurrence, any other the first; members
    /// in the order first met. One table look-up per pair and level (`JSONObject` looks its
    /// keys up one by one, so the object is built in a table and made once).
    func object(_ pairs: [(path: [String], text: String)]) -> JSONValue {
        let root = Builder()
        for (path, text) in pairs where !path.isEmpty {
            root.insert(text, at: path[...], members: self)
        }
        return root.value
    }

    /// An object being built: its keys in order and what each holds.
    private final class Builder {
        enum Entry {
            case value(JSONValue)
            case elements([JSONValue])
            case nested(Builder)
        }

        var keys: [String] = []
        var entries: [String: Entry] = [:]

        func insert(_ text: String, at path: ArraySlice<String>, members: ParameterMembers?) {
            guard let key = path.first else { return }
            let member = members?.member(key)
            let rest = path.dropFirst()
            let existing = entries[key]
            if existing == nil { keys.append(key) }
            if rest.isEmpty {
                if member?.isArray == true {
                    var elements: [JSONValue] = []
                    if case .elements(let found)? = existing { elements = found }
                    elements.append(ParameterCheck.read(text, as: member?.itemKinds ?? []))
                    entries[key] = .elements(elements)
                } else if existing == nil {
                    entries[key] = .value(ParameterCheck.read(text, as: member?.kinds ?? []))
                }
                return
            }
            switch existing {
            case .nested(let inner)?: inner.insert(text, at: rest, members: member)
            case nil:
                let inner = Builder()
                inner.insert(text, at: rest, members: member)
                entries[key] = .nested(inner)
            default: return
            }
        }

        var value: JSONValue {
            .object(
                JSONObject(
                    keys.map { key in
                        switch entries[key] {
                        case .value(let value)?: JSONMember(key: key, value: value)
                        case .elements(let elements)?: JSONMember(key: key, value: .array(elements))
                        case .nested(let inner)?: JSONMember(key: key, value: inner.value)
                        case nil: JSONMember(key: key, value: .null)
                        }
                    }))
        }
    }
}
