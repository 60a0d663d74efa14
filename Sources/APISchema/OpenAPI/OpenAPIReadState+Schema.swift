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
            let key = JSONPointerToken.unescape(token)
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
        if case .bool(let allowsAll) = node.value {
            // `true` allows every value; `false` none (`not` an empty schema).
            var schema = Schema()
            if !allowsAll { schema.not = Schema() }
            return schema
        }
        let object = try node.object()
        ignored.note(object, at: node.path)
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
        if let contains = try node.child("contains") { schema.contains = try readSchema(contains, depth: depth + 1) }
        if let prefix = try node.child("prefixItems") {
            for item in try prefix.array() { schema.prefixItems.append(try readSchema(item, depth: depth + 1)) }
        }
        for key in ["anyOf", "oneOf"] {
            if let alternatives = try node.child(key) {
                for alternative in try alternatives.array() {
                    schema.anyOf.append(try readSchema(alternative, depth: depth + 1))
                }
            }
        }
        // `oneOf` alone is exactly-one; beside an `anyOf` both lists are read as one any-of.
        let hasOneOf = try node.child("oneOf") != nil
        let hasAnyOf = try node.child("anyOf") != nil
        schema.branchesExclusive = hasOneOf && !hasAnyOf
        if let not = try node.child("not") { schema.not = try readSchema(not, depth: depth + 1) }
        if let discriminator = try node.child("discriminator") {
            guard let name = try discriminator.optionalString("propertyName") else {
                throw discriminator.invalid("a discriminator with a 'propertyName'")
            }
            var mapping: [String: String] = [:]
            if let entries = try discriminator.child("mapping") {
                for (value, target) in try entries.members() {
                    var pointer = try target.string()
                    if !pointer.hasPrefix("#") { pointer = Schema.componentPrefix + pointer }
                    mapping[value] = pointer
                }
            }
            schema.discriminator = Discriminator(propertyName: name, mapping: mapping)
        }
        if let xml = try node.child("xml") { schema.xml = try readXML(xml) }
        try readLimits(node, into: &schema)
        if let examples = try node.child("examples") {
            schema.examples = (try? examples.array().map(\.value)) ?? []
        }
        if let example = object["example"] { schema.examples.append(example) }
        schema.defaultValue = object["default"]
        schema.swiftType = try node.optionalString("x-swift-type")
        schema.swiftProperty = try node.optionalString("x-swift-property")
        schema.faker = try readFaker(node)
        if let all = try node.child("allOf") {
            // Read last, so that a lone `$ref` part with nothing beside it is that reference. Inline
            // parts merge here; with a `$ref` among them the parts are kept, and
            // validation and diff merge them with the component (`Contract.flattened`).
            var parts: [Schema] = []
            for part in try all.array() { parts.append(try readSchema(part, depth: depth + 1)) }
            if parts.contains(where: { $0.reference != nil || !$0.allOf.isEmpty }) {
                if parts.count == 1 && schema == Schema() {
                    schema = parts[0]
                } else {
                    schema.allOf = parts
                }
            } else {
                for part in parts { schema = schema.merged(with: part) }
            }
        }
        if schema.isNullable, var values = schema.enumValues, !values.contains(.null),
            try node.child("nullable")?.bool() == true
        {
            values.append(.null)
            schema.enumValues = values
        }
        return schema
    }

    /// Bounds, `readOnly` and `writeOnly`; 3.0's boolean `exclusiveMinimum`/`exclusiveMaximum`
    /// move `minimum`/`maximum` to the 3.1 number form.
    private func readLimits(_ node: OpenAPINode, into schema: inout Schema) throws(ContractError) {
        func number(_ key: String) throws(ContractError) -> Double? {
            guard let child = try node.child(key) else { return nil }
            guard let value = child.value.doubleValue, value.isFinite else { throw child.invalid("a number") }
            return value
        }
        func count(_ key: String) throws(ContractError) -> Int? {
            guard let child = try node.child(key) else { return nil }
            guard let value = child.value.doubleValue, value >= 0, value <= Double(Int32.max),
                value.rounded() == value
            else { throw child.invalid("a non-negative integer") }
            return Int(value)
        }
        var limits = SchemaLimits()
        limits.minimum = try number("minimum")
        limits.maximum = try number("maximum")
        if let exclusive = try node.child("exclusiveMinimum") {
            if case .bool(let flag) = exclusive.value {
                if flag {
                    limits.exclusiveMinimum = limits.minimum
                    limits.minimum = nil
                }
            } else {
                limits.exclusiveMinimum = try number("exclusiveMinimum")
            }
        }
        if let exclusive = try node.child("exclusiveMaximum") {
            if case .bool(let flag) = exclusive.value {
                if flag {
                    limits.exclusiveMaximum = limits.maximum
                    limits.maximum = nil
                }
            } else {
                limits.exclusiveMaximum = try number("exclusiveMaximum")
            }
        }
        limits.multipleOf = try number("multipleOf")
        if let step = limits.multipleOf, step <= 0 {
            throw ContractError.invalidContract(
                file: file, path: node.path.appending(key: "multipleOf").description, expected: "a number above 0",
                found: "\(step)")
        }
        limits.minLength = try count("minLength")
        limits.maxLength = try count("maxLength")
        limits.pattern = try node.optionalString("pattern")
        limits.minItems = try count("minItems")
        limits.maxItems = try count("maxItems")
        limits.uniqueItems = try node.child("uniqueItems")?.bool() ?? false
        limits.minContains = try count("minContains")
        limits.maxContains = try count("maxContains")
        limits.minProperties = try count("minProperties")
        limits.maxProperties = try count("maxProperties")
        schema.limits = limits.merged(with: schema.limits)
        schema.readOnly = try node.child("readOnly")?.bool() ?? schema.readOnly
        schema.writeOnly = try node.child("writeOnly")?.bool() ?? schema.writeOnly
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
            for (index, item) in schema.prefixItems.enumerated() { try check(item, path + ".prefixItems[\(index)]") }
            if let contains = schema.contains { try check(contains, path + ".contains") }
            if case .schema(let inner) = schema.additionalProperties {
                try check(inner, path + ".additionalProperties")
            }
            for (index, alternative) in schema.anyOf.enumerated() { try check(alternative, path + ".anyOf[\(index)]") }
            for (index, part) in schema.allOf.enumerated() { try check(part, path + ".allOf[\(index)]") }
            if let not = schema.not { try check(not, path + ".not") }
            for (value, target) in schema.discriminator?.mapping.sorted(by: { $0.key < $1.key }) ?? [] {
                try check(Schema(reference: target), path + ".discriminator.mapping.\(value)")
            }
        }
        for component in contract.components {
            try check(component.schema, "$.components.schemas.\(component.name)")
        }
        for operation in contract.operations {
            let operationPath = "$.paths['\(operation.path)'].\(operation.method.rawValue.lowercased())"
            for media in operation.requestBody?.content ?? [] {
                if let schema = media.schema {
                    try check(schema, operationPath + ".requestBody.content['\(media.mediaType)'].schema")
                }
            }
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

    /// A schema's `xml` object; a key OpenAPI does not define there (other than an `x-`
    /// extension) is refused, so that no part of it is silently ignored.
    func readXML(_ node: OpenAPINode) throws(ContractError) -> SchemaXML {
        for (key, member) in try node.members() where !SchemaXML.keys.contains(key) && !key.hasPrefix("x-") {
            throw member.invalid("no '\(key)' in an xml object: name, namespace, prefix, attribute or wrapped")
        }
        var xml = SchemaXML()
        xml.name = try node.optionalString("name")
        xml.namespace = try node.optionalString("namespace")
        xml.prefix = try node.optionalString("prefix")
        xml.attribute = try node.child("attribute")?.bool() ?? false
        xml.wrapped = try node.child("wrapped")?.bool() ?? false
        return xml
    }

    /// `x-faker`: a Faker generator's name (`internet.email`), or an object whose one key is
    /// one (`{"name.firstName": []}`, its arguments ignored); one petkit does not make is
    /// noted, and the string is then made from the property's name and format.
    private func readFaker(_ node: OpenAPINode) throws(ContractError) -> String? {
        guard let faker = try node.child("x-faker") else { return nil }
        let key: String
        switch faker.value {
        case .string(let text): key = text
        case .object(let object) where object.count == 1: key = Array(object)[0].key
        default: throw faker.invalid("a Faker generator's name such as 'internet.email'")
        }
        if RealisticText(faker: key) == nil { ignored.noteFaker(key, at: faker.path) }
        return key
    }
}
