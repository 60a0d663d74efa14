import JSONKit

/// Writes a ``Contract`` as an OpenAPI 3.1 JSON document, in a stable order so the generated
/// file only changes when the contract does.
///
/// ```swift
/// let (contract, _) = try app.make()          // app: a ConsumerContract
/// let text = OpenAPIWriter().text(contract)   // pretty JSON, trailing newline
/// ```
public struct OpenAPIWriter: Sendable {
    /// Creates a writer.
    public init() {}

    /// The document as pretty JSON (two-space indent) with a trailing newline.
    public func text(_ contract: Contract) -> String {
        document(contract).serialized(.pretty) + "\n"
    }

    /// The document as a JSON value.
    public func document(_ contract: Contract) -> JSONValue {
        var info = JSONObject([("title", .string(contract.title)), ("version", .string(contract.version))])
        if let description = contract.description { info["description"] = .string(description) }
        var paths = JSONObject()
        for operation in contract.operations {
            var item = paths[operation.path]?.objectValue ?? JSONObject()
            item[operation.method.rawValue.lowercased()] = .object(self.operation(operation))
            paths[operation.path] = .object(item)
        }
        var document = JSONObject([("openapi", "3.1.0"), ("info", .object(info))])
        if !contract.servers.isEmpty { document["servers"] = Self.servers(contract.servers) }
        document["paths"] = .object(paths)
        if !contract.components.isEmpty {
            let schemas = JSONObject(contract.components.map { ($0.name, schema($0.schema)) })
            document["components"] = ["schemas": .object(schemas)]
        }
        return .object(document)
    }

    private func operation(_ operation: ContractOperation) -> JSONObject {
        var object = JSONObject()
        if let operationId = operation.operationId { object["operationId"] = .string(operationId) }
        if let summary = operation.summary { object["summary"] = .string(summary) }
        if !operation.servers.isEmpty { object["servers"] = Self.servers(operation.servers) }
        if !operation.parameters.isEmpty { object["parameters"] = .array(operation.parameters.map(parameter)) }
        if let body = operation.requestBody { object["requestBody"] = requestBody(body) }
        var responses = JSONObject()
        for response in operation.responses { responses[response.status] = .object(self.response(response)) }
        object["responses"] = .object(responses)
        if !operation.callbacks.isEmpty { object["callbacks"] = .object(callbacks(operation.callbacks)) }
        return object
    }

    /// `callbacks`: each name's expressions, each expression's path item, in the order read.
    private func callbacks(_ callbacks: [ContractCallback]) -> JSONObject {
        var written = JSONObject()
        for callback in callbacks {
            var item = written[callback.name]?[callback.expression]?.objectValue ?? JSONObject()
            var operation = JSONObject()
            if !callback.parameters.isEmpty { operation["parameters"] = .array(callback.parameters.map(parameter)) }
            if let body = callback.requestBody { operation["requestBody"] = requestBody(body) }
            item[callback.method.rawValue.lowercased()] = .object(operation)
            var expressions = written[callback.name]?.objectValue ?? JSONObject()
            expressions[callback.expression] = .object(item)
            written[callback.name] = .object(expressions)
        }
        return written
    }

    private func parameter(_ parameter: ContractParameter) -> JSONValue {
        var object = JSONObject([("name", .string(parameter.name)), ("in", .string(parameter.location.rawValue))])
        if let description = parameter.description { object["description"] = .string(description) }
        object["required"] = .bool(parameter.required)
        if let style = parameter.style { object["style"] = .string(style) }
        if let explode = parameter.explode { object["explode"] = .bool(explode) }
        if parameter.allowReserved { object["allowReserved"] = .bool(true) }
        object["schema"] = schema(parameter.schema)
        if let value = parameter.defaultValue, case .object(var members) = object["schema"] {
            members["default"] = value
            object["schema"] = .object(members)
        }
        if !parameter.examples.isEmpty {
            let examples = parameter.examples.enumerated().map {
                ("example\($0.offset + 1)", JSONValue.object(["value": $0.element]))
            }
            object["examples"] = .object(JSONObject(examples))
        }
        if !parameter.sources.isEmpty {
            object["x-petkit-source"] = .array(
                parameter.sources.map { ["operation": .string($0.operation), "path": .string($0.path)] })
        }
        return .object(object)
    }

    private func requestBody(_ body: ContractRequestBody) -> JSONValue {
        var object = JSONObject()
        if let description = body.description { object["description"] = .string(description) }
        var content = JSONObject()
        for media in body.content {
            var entry = media.schema.map { JSONObject([("schema", schema($0))]) } ?? JSONObject()
            if !media.encoding.isEmpty {
                entry["encoding"] = .object(
                    JSONObject(media.encoding.sorted { $0.key < $1.key }.map { ($0.key, encoding($0.value)) }))
            }
            content[media.mediaType] = .object(entry)
        }
        object["content"] = .object(content)
        object["required"] = .bool(body.required)
        return .object(object)
    }

    private func encoding(_ encoding: ContractEncoding) -> JSONValue {
        var object = JSONObject()
        if let contentType = encoding.contentType { object["contentType"] = .string(contentType) }
        if let style = encoding.style { object["style"] = .string(style) }
        if let explode = encoding.explode { object["explode"] = .bool(explode) }
        if encoding.allowReserved { object["allowReserved"] = .bool(true) }
        if !encoding.headers.isEmpty { object["headers"] = .object(headers(encoding.headers)) }
        return .object(object)
    }

    /// Header Objects by name: a response's, or a multipart part's.
    private func headers(_ headers: [ResponseHeader]) -> JSONObject {
        JSONObject(
            headers.map { header -> (String, JSONValue) in
                var written = JSONObject()
                if header.required { written["required"] = true }
                if let schema = header.schema { written["schema"] = self.schema(schema) }
                if let example = header.example { written["example"] = example }
                return (header.name, .object(written))
            })
    }

    private func response(_ response: ContractResponse) -> JSONObject {
        var object = JSONObject([("description", .string(response.description))])
        if !response.headers.isEmpty { object["headers"] = .object(headers(response.headers)) }
        guard let mediaType = response.mediaType else { return object }
        var media = JSONObject()
        if let schema = response.schema {
            var written = self.schema(schema).objectValue ?? JSONObject()
            if let swiftType = response.swiftType, written["x-swift-type"] == nil {
                written["x-swift-type"] = .string(swiftType)
            }
            media["schema"] = .object(written)
        }
        if !response.namedExamples.isEmpty {
            let examples = response.namedExamples.map { ($0.name, JSONValue.object(["value": $0.value])) }
            media["examples"] = .object(JSONObject(examples))
        } else if !response.examples.isEmpty {
            let examples = response.examples.enumerated().map {
                ("example\($0.offset + 1)", JSONValue.object(["value": $0.element]))
            }
            media["examples"] = .object(JSONObject(examples))
        }
        var content: [(String, JSONValue)] = []
        for other in response.otherContent {
            var written = JSONObject()
            if let schema = other.schema { written["schema"] = self.schema(schema) }
            if !other.namedExamples.isEmpty {
                written["examples"] = .object(
                    JSONObject(other.namedExamples.map { ($0.name, JSONValue.object(["value": $0.value])) }))
            } else if let example = other.examples.first {
                written["example"] = example
            }
            content.append((other.mediaType, .object(written)))
        }
        // The media types in the order read: the one described first among the others where it stood.
        content.insert((mediaType, .object(media)), at: min(max(response.mediaTypePosition, 0), content.count))
        object["content"] = .object(JSONObject(content))
        return object
    }

    private func writeLimits(_ schema: Schema, into object: inout JSONObject) {
        let limits = schema.limits
        func number(_ value: Double) -> JSONValue {
            if value.rounded() == value, abs(value) < 1e15 { return .int(Int64(value)) }
            return JSONNumber(value).map(JSONValue.number) ?? .null
        }
        if let value = limits.minimum { object["minimum"] = number(value) }
        if let value = limits.maximum { object["maximum"] = number(value) }
        if let value = limits.exclusiveMinimum { object["exclusiveMinimum"] = number(value) }
        if let value = limits.exclusiveMaximum { object["exclusiveMaximum"] = number(value) }
        if let value = limits.multipleOf { object["multipleOf"] = number(value) }
        if let value = limits.minLength { object["minLength"] = .int(Int64(value)) }
        if let value = limits.maxLength { object["maxLength"] = .int(Int64(value)) }
        if let value = limits.pattern { object["pattern"] = .string(value) }
        if let value = limits.minItems { object["minItems"] = .int(Int64(value)) }
        if let value = limits.maxItems { object["maxItems"] = .int(Int64(value)) }
        if limits.uniqueItems { object["uniqueItems"] = true }
        if let value = limits.minContains { object["minContains"] = .int(Int64(value)) }
        if let value = limits.maxContains { object["maxContains"] = .int(Int64(value)) }
        if let value = limits.minProperties { object["minProperties"] = .int(Int64(value)) }
        if let value = limits.maxProperties { object["maxProperties"] = .int(Int64(value)) }
        if schema.readOnly { object["readOnly"] = true }
        if schema.writeOnly { object["writeOnly"] = true }
    }

    /// A schema object; keys in a fixed order.
    public func schema(_ schema: Schema) -> JSONValue {
        var object = JSONObject()
        if let reference = schema.reference { object["$ref"] = .string(reference) }
        if schema.types.count == 1 {
            object["type"] = .string(schema.types[0].rawValue)
        } else if schema.types.count > 1 {
            object["type"] = .array(schema.types.map { .string($0.rawValue) })
        }
        if let format = schema.format { object["format"] = .string(format) }
        if let description = schema.description { object["description"] = .string(description) }
        if let values = schema.enumValues { object["enum"] = .array(values) }
        if !schema.properties.isEmpty {
            object["properties"] = .object(JSONObject(schema.properties.map { ($0.name, self.schema($0.schema)) }))
        }
        if !schema.required.isEmpty { object["required"] = .array(schema.required.map { .string($0) }) }
        switch schema.additionalProperties {
        case .allowed: object["additionalProperties"] = true
        case .forbidden: object["additionalProperties"] = false
        case .schema(let inner): object["additionalProperties"] = self.schema(inner)
        case nil: break
        }
        if let items = schema.items { object["items"] = self.schema(items) }
        if !schema.prefixItems.isEmpty { object["prefixItems"] = .array(schema.prefixItems.map { self.schema($0) }) }
        if let contains = schema.contains { object["contains"] = self.schema(contains) }
        if !schema.anyOf.isEmpty {
            object[schema.branchesExclusive ? "oneOf" : "anyOf"] = .array(schema.anyOf.map(self.schema))
        }
        if let discriminator = schema.discriminator {
            var written = JSONObject([("propertyName", .string(discriminator.propertyName))])
            if !discriminator.mapping.isEmpty {
                written["mapping"] = .object(
                    JSONObject(discriminator.mapping.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
            }
            object["discriminator"] = .object(written)
        }
        if let xml = schema.xml { object["xml"] = Self.xml(xml) }
        if !schema.allOf.isEmpty { object["allOf"] = .array(schema.allOf.map(self.schema)) }
        if let not = schema.not { object["not"] = self.schema(not) }
        writeLimits(schema, into: &object)
        if !schema.examples.isEmpty { object["examples"] = .array(schema.examples) }
        if let value = schema.defaultValue { object["default"] = value }
        if let swiftType = schema.swiftType { object["x-swift-type"] = .string(swiftType) }
        if let swiftProperty = schema.swiftProperty { object["x-swift-property"] = .string(swiftProperty) }
        if let faker = schema.faker { object["x-faker"] = .string(faker) }
        return .object(object)
    }

    /// `servers`: one object a URL.
    static func servers(_ urls: [String]) -> JSONValue {
        .array(urls.map { .object(["url": .string($0)]) })
    }

    /// A schema's `xml` object, only the keys that differ from their defaults.
    static func xml(_ xml: SchemaXML) -> JSONValue {
        var object = JSONObject()
        if let name = xml.name { object["name"] = .string(name) }
        if let namespace = xml.namespace { object["namespace"] = .string(namespace) }
        if let prefix = xml.prefix { object["prefix"] = .string(prefix) }
        if xml.attribute { object["attribute"] = true }
        if xml.wrapped { object["wrapped"] = true }
        return .object(object)
    }
}
