import JSONKit

extension OpenAPIReadState {
    /// Follows a local `$ref` to another part of the document (for responses and parameters).
    func resolve(_ node: OpenAPINode, depth: Int = 0) throws(ContractError) -> OpenAPINode {
        guard case .object(let object) = node.value, let reference = object["$ref"] else { return node }
        guard case .string(let pointer) = reference else { throw node.invalid("'$ref' as a string") }
        guard depth < 32, let target = lookup(pointer) else {
            throw ContractError.unresolvedReference(file: file, path: node.path.description, reference: pointer)
        }
        return try resolve(target, depth: depth + 1)
    }

    /// The node a local JSON pointer (`#/components/...`) names.
    func lookup(_ pointer: String) -> OpenAPINode? {
        guard pointer.hasPrefix("#") else { return nil }
        var node = root
        for token in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: true) {
            let key = String(token).replacing("~1", with: "/").replacing("~0", with: "~")
            switch node.value {
            case .object(let object):
                guard let value = object[key] else { return nil }
                node = OpenAPINode(value: value, path: node.path.appending(key: key), file: file)
            case .array(let elements):
                guard let index = Int(key), elements.indices.contains(index) else { return nil }
                node = OpenAPINode(value: elements[index], path: node.path.appending(index: index), file: file)
            default: return nil
            }
        }
        return node
    }

    func readSchema(_ node: OpenAPINode, depth: Int) throws(ContractError) -> Schema {
        guard depth < 64 else { throw node.invalid("schemas nested at most 64 deep") }
        if case .bool = node.value { return Schema() }
        let object = try node.object()
        var schema = Schema()
        if let reference = try node.child("$ref") {
            let pointer = try reference.string()
            if pointer.hasPrefix(Schema.componentPrefix) {
                schema.reference = pointer
            } else if let target = lookup(pointer) {
                schema = try readSchema(target, depth: depth + 1)
            } else {
                throw ContractError.unresolvedReference(file: file, path: node.path.description, reference: pointer)
            }
        }
        if let type = try node.child("type") {
            schema.types = try readTypes(type)
        }
        if try node.child("nullable")?.bool() == true, !schema.types.isEmpty, !schema.types.contains(.null) {
            schema.types.append(.null)
        }
        schema.format = try node.optionalString("format")
        schema.description = try node.optionalString("description")
        if let values = try node.child("enum") { schema.enumValues = try values.array().map(\.value) }
        if let constant = object["const"] { schema.enumValues = [constant] }
        if let properties = try node.child("properties") {
            for (name, property) in try properties.members() {
                schema.properties.append(SchemaProperty(name: name, schema: try readSchema(property, depth: depth + 1)))
            }
        }
        if let required = try node.child("required") {
            schema.required = try required.array().map { node throws(ContractError) in try node.string() }
        }
        if let additional = try node.child("additionalProperties") {
            if case .bool(let allowed) = additional.value {
                schema.additionalProperties = allowed ? .allowed : .forbidden
            } else {
                schema.additionalProperties = .schema(try readSchema(additional, depth: depth + 1))
            }
        }
        if let items = try node.child("items") { schema.items = try readSchema(items, depth: depth + 1) }
        for key in ["anyOf", "oneOf"] {
            if let alternatives = try node.child(key) {
                for alternative in try alternatives.array() {
                    schema.anyOf.append(try readSchema(alternative, depth: depth + 1))
                }
            }
        }
        if let all = try node.child("allOf") {
            for part in try all.array() { schema = merge(schema, try readSchema(part, depth: depth + 1)) }
        }
        if let examples = try node.child("examples") {
            schema.examples = (try? examples.array().map(\.value)) ?? []
        }
        if let example = object["example"] { schema.examples.append(example) }
        schema.swiftType = try node.optionalString("x-swift-type")
        schema.swiftProperty = try node.optionalString("x-swift-property")
        if schema.isNullable, var values = schema.enumValues, !values.contains(.null),
            try node.child("nullable")?.bool() == true
        {
            values.append(.null)
            schema.enumValues = values
        }
        return schema
    }

    private func readTypes(_ node: OpenAPINode) throws(ContractError) -> [JSONKind] {
        let names: [String]
        if case .string(let name) = node.value {
            names = [name]
        } else {
            names = try node.array().map { node throws(ContractError) in try node.string() }
        }
        var kinds: [JSONKind] = []
        for name in names {
            guard let kind = JSONKind(rawValue: name) else {
                throw node.invalid("a JSON Schema type (null, boolean, integer, number, string, array, object)")
            }
            kinds.append(kind)
        }
        return kinds
    }

    /// `allOf` of one schema is that schema; of several, their properties and requirements
    /// together. A `$ref` part alone is kept as the reference.
    private func merge(_ base: Schema, _ part: Schema) -> Schema {
        if base == Schema() { return part }
        var merged = base
        if merged.reference == nil && merged.types.isEmpty && merged.properties.isEmpty {
            merged.reference = part.reference
        }
        if merged.types.isEmpty { merged.types = part.types }
        merged.properties += part.properties.filter { merged.property(named: $0.name) == nil }
        merged.required += part.required.filter { !merged.required.contains($0) }
        if merged.items == nil { merged.items = part.items }
        if merged.format == nil { merged.format = part.format }
        if merged.enumValues == nil { merged.enumValues = part.enumValues }
        if merged.swiftType == nil { merged.swiftType = part.swiftType }
        return merged
    }

    /// Every `$ref` to a component must name one.
    func checkReferences(_ contract: Contract) throws(ContractError) {
        let names = Set(contract.components.map(\.name))
        func check(_ schema: Schema, _ path: String) throws(ContractError) {
            if let reference = schema.reference {
                guard let name = schema.referencedComponent, names.contains(name) else {
                    throw ContractError.unresolvedReference(file: file, path: path, reference: reference)
                }
            }
            for property in schema.properties { try check(property.schema, path + ".properties." + property.name) }
            if let items = schema.items { try check(items, path + ".items") }
            if case .schema(let inner) = schema.additionalProperties {
                try check(inner, path + ".additionalProperties")
            }
            for (index, alternative) in schema.anyOf.enumerated() { try check(alternative, path + ".anyOf[\(index)]") }
        }
        for component in contract.components {
            try check(component.schema, "$.components.schemas.\(component.name)")
        }
        for operation in contract.operations {
            for response in operation.responses {
                if let schema = response.schema {
                    try check(
                        schema,
                        "$.paths['\(operation.path)'].\(operation.method.rawValue.lowercased()).responses.\(response.status)"
                    )
                }
            }
        }
    }
}
