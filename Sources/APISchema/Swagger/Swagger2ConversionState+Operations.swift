import JSONKit

extension Swagger2ConversionState {
    private static let methods = ["get", "put", "post", "delete", "options", "head", "patch"]

    /// A path item: each operation with the path's parameters merged into its own (3.0 would
    /// keep them apart, but body and form parameters become each operation's request body).
    mutating func pathItem(
        _ item: OpenAPINode, consumes: [String]?, produces: [String]?
    ) throws(ContractError)
        -> JSONValue
    {
        var converted = JSONObject()
        let shared = try item.child("parameters")?.array() ?? []
        for (key, node) in try item.members() {
            if Self.methods.contains(key) {
                converted.append(
                    key: key, value: try operation(node, shared: shared, consumes: consumes, produces: produces))
            } else if key.hasPrefix("x-") {
                converted.append(key: key, value: node.value)
            } else if key != "parameters" {
                warn("'\(key)' at \(Self.pointer(node.path)) is not converted")
            }
        }
        return .object(converted)
    }

    private mutating func operation(
        _ node: OpenAPINode, shared: [OpenAPINode], consumes: [String]?, produces: [String]?
    ) throws(ContractError) -> JSONValue {
        var converted = JSONObject()
        for (key, child) in try node.members() where !Self.operationKeys.contains(key) {
            if key.hasPrefix("x-") {
                converted.append(key: key, value: child.value)
            } else {
                warn("'\(key)' at \(Self.pointer(child.path)) is not a Swagger 2.0 operation field: not converted")
            }
        }
        for key in ["tags", "summary", "description", "externalDocs", "operationId", "deprecated", "security"] {
            if let child = try node.child(key) { converted.append(key: key, value: child.value) }
        }
        // An operation's own schemes, with the document's host and base path, are its servers;
        // with no host its servers would be the document's relative base path alone.
        if let schemes = try node.child("schemes"), try root.child("host") != nil,
            let servers = try servers(schemes: schemes)
        {
            converted.append(key: "servers", value: servers)
        }
        let consumes = try mediaTypes(node.child("consumes")) ?? consumes ?? []
        let produces = try mediaTypes(node.child("produces")) ?? produces ?? []
        // The path's parameters, then the operation's, an operation's replacing a path's of the same name and place.
        var parameters: [(node: OpenAPINode, resolved: OpenAPINode)] = []
        for parameter in shared + (try node.child("parameters")?.array() ?? []) {
            let resolved = try resolve(parameter)
            let name = try resolved.optionalString("name")
            let location = try resolved.optionalString("in")
            parameters.removeAll { existing in
                (try? existing.resolved.optionalString("name")) == name
                    && (try? existing.resolved.optionalString("in")) == location
            }
            parameters.append((parameter, resolved))
        }
        var plain: [JSONValue] = []
        var body: OpenAPINode?
        var form: [OpenAPINode] = []
        for (parameter, resolved) in parameters {
            switch try resolved.optionalString("in") {
            case "body": body = resolved
            case "formData": form.append(resolved)
            default:
                let path = node.path.appending(key: "parameters").appending(index: plain.count)
                record(path, from: parameter.path)
                if case .object(let object) = parameter.value, case .string(let reference)? = object["$ref"] {
                    plain.append(.object(["$ref": .string(try rewrite(reference, at: parameter))]))
                } else {
                    plain.append(try self.parameter(resolved))
                }
            }
        }
        if !plain.isEmpty { converted.append(key: "parameters", value: .array(plain)) }
        if let body {
            if !form.isEmpty {
                warn("form parameters at \(Self.pointer(form[0].path)) beside a body parameter are not converted")
            }
            converted.append(key: "requestBody", value: try requestBody(body, consumes: consumes, at: node.path))
        } else if !form.isEmpty {
            converted.append(key: "requestBody", value: try formBody(form, consumes: consumes, at: node.path))
        }
        let responsesPath = node.path.appending(key: "responses")
        if let responses = try node.child("responses") {
            var convertedResponses = JSONObject()
            for (status, response) in try responses.members() {
                if status.hasPrefix("x-") {
                    convertedResponses.append(key: status, value: response.value)
                    continue
                }
                let path = responsesPath.appending(key: status)
                convertedResponses.append(key: status, value: try self.response(response, produces: produces, at: path))
            }
            converted.append(key: "responses", value: .object(convertedResponses))
        }
        return .object(converted)
    }

    // MARK: Parameters

    /// A parameter's or a response header's members apart: its value keywords (what becomes its
    /// `schema`), and the rest but `collectionFormat` (which becomes a style, or a warning).
    private static func schemaAndRest(of object: JSONObject) -> (schema: JSONObject, rest: JSONObject) {
        var schema = JSONObject()
        var rest = JSONObject()
        for member in object.members {
            if schemaKeys.contains(member.key) {
                schema.members.append(member)
            } else if member.key != "collectionFormat" {
                rest.members.append(member)
            }
        }
        return (schema, rest)
    }

    /// A non-body parameter: its value keywords move into `schema`, `collectionFormat` becomes
    /// `style` and `explode`.
    mutating func parameter(_ node: OpenAPINode) throws(ContractError) -> JSONValue {
        let object = try node.object()
        guard let location = try node.optionalString("in") else { throw node.invalid("a parameter with 'in'") }
        var (schema, converted) = Self.schemaAndRest(of: object)
        var schemaValue = try self.schema(
            OpenAPINode(value: .object(schema), path: node.path, file: node.file), depth: 0)
        let isArray = object["type"] == .string("array")
        let format = try node.optionalString("collectionFormat") ?? "csv"
        if case .object(let items)? = object["items"], let nested = items["collectionFormat"] {
            warn(
                "'collectionFormat' \(OpenAPINode.describe(nested)) of nested items at "
                    + "\(Self.pointer(node.path.appending(key: "items").appending(key: "collectionFormat"))) "
                    + "is not converted")
        }
        if isArray {
            let formatPath = node.path.appending(key: "collectionFormat")
            switch (format, location) {
            case ("csv", "query"), ("csv", "formData"):
                converted.append(key: "style", value: "form")
                converted.append(key: "explode", value: false)
            case ("csv", _):
                converted.append(key: "style", value: "simple")
                converted.append(key: "explode", value: false)
            case ("multi", "query"), ("multi", "formData"):
                converted.append(key: "style", value: "form")
                converted.append(key: "explode", value: true)
            case ("ssv", "query"):
                converted.append(key: "style", value: "spaceDelimited")
                converted.append(key: "explode", value: false)
            case ("pipes", "query"):
                converted.append(key: "style", value: "pipeDelimited")
                converted.append(key: "explode", value: false)
            case ("tsv", _):
                // OpenAPI 3 has no tab-separated style: petkit's own `tabDelimited` stands for it.
                converted.append(key: "style", value: .string(ContractParameter.tabDelimited))
                converted.append(key: "explode", value: false)
            case ("ssv", _), ("pipes", _), ("multi", _):
                // No 3.0 style splits these: the value is read as the one string it is.
                warn(
                    "'collectionFormat: \(format)' at \(Self.pointer(formatPath)) has no OpenAPI 3.0 equivalent "
                        + "for a \(location) parameter: the value is read as one string, not an array")
                schemaValue = .object(["type": "string"])
            default:
                throw OpenAPINode(value: object["collectionFormat"] ?? .null, path: formatPath, file: node.file)
                    .invalid("a collectionFormat csv, ssv, tsv, pipes or multi")
            }
        }
        guard location == "formData" else {
            converted.append(key: "schema", value: schemaValue)
            return .object(converted)
        }
        // A form field may be sent empty only with `allowEmptyValue: true` (2.0's default is
        // false); 3.0 has no such field for a body's property, so a string says `minLength: 1`.
        if object["type"] == .string("string"), object["allowEmptyValue"] != .bool(true), object["minLength"] == nil,
            case .object(var property) = schemaValue
        {
            property.append(key: "minLength", value: .int(1))
            schemaValue = .object(property)
        }
        return schemaValue
    }

    private mutating func requestBody(
        _ node: OpenAPINode, consumes: [String], at operation: JSONPath
    )
        throws(ContractError) -> JSONValue
    {
        var converted = JSONObject()
        for key in ["description", "required"] {
            if let child = try node.child(key) { converted.append(key: key, value: child.value) }
        }
        guard let schemaNode = try node.child("schema") else { throw node.invalid("a body parameter with a 'schema'") }
        let schema = try schema(schemaNode, depth: 0)
        var content = JSONObject()
        for mediaType in consumes.isEmpty ? ["application/json"] : consumes where content[mediaType] == nil {
            let path = operation.appending(key: "requestBody").appending(key: "content").appending(key: mediaType)
            record(path.appending(key: "schema"), from: schemaNode.path)
            content.append(key: mediaType, value: .object(["schema": schema]))
        }
        converted.append(key: "content", value: .object(content))
        return .object(converted)
    }

    /// Form parameters as one object schema, `multipart/form-data` or
    /// `application/x-www-form-urlencoded` as `consumes` says (multipart when a file is sent).
    private mutating func formBody(
        _ nodes: [OpenAPINode], consumes: [String], at operation: JSONPath
    )
        throws(ContractError) -> JSONValue
    {
        var properties = JSONObject()
        var required: [JSONValue] = []
        var encoding = JSONObject()
        var hasFile = false
        for node in nodes {
            guard let name = try node.optionalString("name") else { throw node.invalid("a parameter with a 'name'") }
            if try node.child("required")?.bool() == true { required.append(.string(name)) }
            if try node.optionalString("type") == "file" { hasFile = true }
            var schema = try parameter(node)
            if case .object(var object) = schema, let description = try node.child("description") {
                object.append(key: "description", value: description.value)
                schema = .object(object)
            }
            properties.append(key: name, value: schema)
            // csv (the default) is sent as one comma-separated value, tsv as one tab-separated
            // value; multi as the field repeated (3.0's default); any other format was read as one
            // string above.
            let format = try node.optionalString("collectionFormat") ?? "csv"
            if try node.optionalString("type") == "array", format == "csv" || format == "tsv" {
                let style = format == "csv" ? "form" : ContractParameter.tabDelimited
                encoding.append(key: name, value: .object(["style": .string(style), "explode": false]))
            }
        }
        var schema = JSONObject([("type", "object"), ("properties", .object(properties))])
        if !required.isEmpty { schema.append(key: "required", value: .array(required)) }
        let formTypes = ["multipart/form-data", "application/x-www-form-urlencoded"]
        var mediaTypes = consumes.filter { formTypes.contains($0.lowercased()) }
        if mediaTypes.isEmpty { mediaTypes = [hasFile ? formTypes[0] : formTypes[1]] }
        var content = JSONObject()
        for mediaType in mediaTypes {
            var media = JSONObject([("schema", .object(schema))])
            if !encoding.isEmpty { media.append(key: "encoding", value: .object(encoding)) }
            content.append(key: mediaType, value: .object(media))
        }
        var body = JSONObject([("content", .object(content))])
        if !required.isEmpty { body.append(key: "required", value: true) }
        return .object(body)
    }

    // MARK: Responses

    /// A response: its `schema` under each `produces` media type, `examples` by media type as
    /// each content's `example`, headers' value keywords as their `schema`.
    mutating func response(
        _ node: OpenAPINode, produces: [String], at path: JSONPath
    ) throws(ContractError)
        -> JSONValue
    {
        record(path, from: node.path)
        if case .object(let object) = node.value, case .string(let reference)? = object["$ref"] {
            return .object(["$ref": .string(try rewrite(reference, at: node))])
        }
        var converted = JSONObject()
        converted.append(key: "description", value: try node.child("description")?.value ?? "")
        for (key, child) in try node.members() where key.hasPrefix("x-") {
            converted.append(key: key, value: child.value)
        }
        if let headers = try node.child("headers") {
            var convertedHeaders = JSONObject()
            for (name, header) in try headers.members() {
                convertedHeaders.append(key: name, value: try responseHeader(name, header))
            }
            converted.append(key: "headers", value: .object(convertedHeaders))
        }
        let schemaNode = try node.child("schema")
        let schema = try schemaNode.map { node throws(ContractError) in try self.schema(node, depth: 0) }
        let examples = try node.child("examples")?.members() ?? []
        var content = JSONObject()
        if schema != nil {
            for mediaType in produces.isEmpty ? ["application/json"] : produces where content[mediaType] == nil {
                if let schemaNode {
                    let contentPath = path.appending(key: "content").appending(key: mediaType)
                    record(contentPath.appending(key: "schema"), from: schemaNode.path)
                }
                content.append(key: mediaType, value: .object(["schema": schema ?? .null]))
            }
        }
        // An example keyed by a media range (`*/*`, `text/*`) is the example of each produced
        // type it covers that has none of its own; one that covers none stays under its key.
        let exact = examples.filter { !$0.key.contains("*") }
        var targeted: [(key: String, node: OpenAPINode)] = exact
        for (range, example) in examples where range.contains("*") {
            let covered = content.keys.filter { type in
                Self.range(range, covers: type) && !exact.contains { $0.key.lowercased() == type.lowercased() }
            }
            targeted += covered.isEmpty ? [(range, example)] : covered.map { ($0, example) }
        }
        for (mediaType, example) in targeted {
            var media: JSONObject
            if case .object(let existing)? = content[mediaType] { media = existing } else { media = JSONObject() }
            if media["schema"] == nil, let schema { media.append(key: "schema", value: schema) }
            media.append(key: "example", value: example.value)
            record(
                path.appending(key: "content").appending(key: mediaType).appending(key: "example"), from: example.path)
            if content[mediaType] == nil {
                content.append(key: mediaType, value: .object(media))
            } else if let index = content.members.firstIndex(where: { $0.key == mediaType }) {
                content.members[index].value = .object(media)
            }
        }
        if !content.isEmpty { converted.append(key: "content", value: .object(content)) }
        return .object(converted)
    }

    /// A response header: its value keywords become its `schema`; an array's `collectionFormat`
    /// `csv` (the default) becomes `style: simple`, the only style a 3.0 header has, and any other
    /// format (no 3.0 header splits on it) is a warning, the value read as one string.
    private mutating func responseHeader(_ name: String, _ header: OpenAPINode) throws(ContractError) -> JSONValue {
        let members = try header.object()
        var (schema, object) = Self.schemaAndRest(of: members)
        let schemaNode = OpenAPINode(value: .object(schema), path: header.path, file: header.file)
        var schemaValue = try self.schema(schemaNode, depth: 0)
        if case .object(let items)? = members["items"], let nested = items["collectionFormat"] {
            warn(
                "'collectionFormat' \(OpenAPINode.describe(nested)) of the nested items of response header '\(name)' "
                    + "at \(Self.pointer(header.path.appending(key: "items").appending(key: "collectionFormat"))) "
                    + "is not converted")
        }
        if members["type"] == .string("array") {
            let formatPath = header.path.appending(key: "collectionFormat")
            switch try header.optionalString("collectionFormat") ?? "csv" {
            case "csv":
                object.append(key: "style", value: "simple")
                object.append(key: "explode", value: false)
            case let format where ["ssv", "tsv", "pipes", "multi"].contains(format):
                warn(
                    "'collectionFormat: \(format)' of response header '\(name)' at \(Self.pointer(formatPath)) has no "
                        + "OpenAPI 3.0 equivalent (a header's only style is simple, comma-separated): the value is "
                        + "read as one string, not an array")
                schemaValue = .object(["type": "string"])
            default:
                throw OpenAPINode(value: members["collectionFormat"] ?? .null, path: formatPath, file: header.file)
                    .invalid("a collectionFormat csv, ssv, tsv, pipes or multi")
            }
        }
        object.append(key: "schema", value: schemaValue)
        return .object(object)
    }

    /// Whether a media range (`*/*`, `text/*`) covers a media type, parameters aside.
    static func range(_ range: String, covers type: String) -> Bool {
        func essence(_ text: String) -> [Substring] {
            (text.split(separator: ";", maxSplits: 1).first ?? "").split(separator: "/").map {
                Substring($0.lowercased().filter { $0 != " " })
            }
        }
        let (pattern, candidate) = (essence(range), essence(type))
        guard pattern.count == 2, candidate.count == 2 else { return false }
        return (pattern[0] == "*" || pattern[0] == candidate[0]) && (pattern[1] == "*" || pattern[1] == candidate[1])
    }
}
