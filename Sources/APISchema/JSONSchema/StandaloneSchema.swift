import JSONKit

/// A JSON Schema on its own (as a stub's `matchesJsonSchema` gives one), read into the schema
/// model that contracts use, so that both are validated by one ``BodyWalker``: every local
/// `$ref` (`#/definitions/pet`, `#/$defs/pet`, `#`) becomes a component named by its pointer,
/// so a recursive schema stays a reference.
package struct StandaloneSchema: Sendable {
    /// The schema itself.
    package let root: Schema
    /// A contract holding only the referenced schemas, for resolving the references.
    package let contract: Contract

    /// Reads a schema that ``JSONSchemaCheck`` accepted; a reference to nothing is an error.
    package init(_ value: JSONValue) throws(ContractError) {
        var pointers: [String] = []
        Self.collectReferences(value, into: &pointers, depth: 0)
        var components: [JSONMember] = []
        for pointer in pointers {
            guard let target = JSONSchemaCheck.resolve(pointer, in: value) else {
                throw .unresolvedReference(file: "schema", path: "$", reference: pointer)
            }
            components.append(JSONMember(key: pointer, value: Self.rewritten(target, depth: 0)))
        }
        let document: JSONValue = .object([
            "openapi": .string("3.1.0"),
            "components": .object(["schemas": .object(JSONObject(components))]),
        ])
        let state = OpenAPIReadState(document: document, file: "schema")
        var contract = Contract(title: "", version: "")
        for member in components {
            let node = OpenAPINode(
                value: member.value, path: JSONPath.root.appending(key: member.key), file: "schema")
            contract.components.append(NamedSchema(name: member.key, schema: try state.readSchema(node, depth: 0)))
        }
        let node = OpenAPINode(value: Self.rewritten(value, depth: 0), path: .root, file: "schema")
        root = try state.readSchema(node, depth: 0)
        self.contract = contract
    }

    /// Every distinct local `$ref` in the schema, in the order met.
    private static func collectReferences(_ value: JSONValue, into pointers: inout [String], depth: Int) {
        guard depth <= JSONSchemaCheck.maximumDepth else { return }
        switch value {
        case .object(let object):
            for member in object.members {
                if member.key == "$ref", case .string(let pointer) = member.value {
                    if !pointers.contains(pointer) { pointers.append(pointer) }
                } else {
                    collectReferences(member.value, into: &pointers, depth: depth + 1)
                }
            }
        case .array(let elements):
            for element in elements { collectReferences(element, into: &pointers, depth: depth + 1) }
        default: break
        }
    }

    /// The schema with each `$ref` pointing at the component named by its pointer.
    private static func rewritten(_ value: JSONValue, depth: Int) -> JSONValue {
        guard depth <= JSONSchemaCheck.maximumDepth else { return value }
        switch value {
        case .object(let object):
            return .object(
                JSONObject(
                    object.members.map { member in
                        if member.key == "$ref", case .string(let pointer) = member.value {
                            return JSONMember(key: member.key, value: .string(Schema.componentPrefix + pointer))
                        }
                        return JSONMember(key: member.key, value: rewritten(member.value, depth: depth + 1))
                    }))
        case .array(let elements):
            return .array(elements.map { rewritten($0, depth: depth + 1) })
        default: return value
        }
    }
}
