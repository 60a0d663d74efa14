import JSONKit

/// One conversion of a Swagger 2.0 document: the warnings so far and where each part came from.
struct Swagger2ConversionState {
    let root: OpenAPINode
    var warnings: [String] = []
    var origins: [(converted: [JSONPath.Component], original: JSONPath)] = []
    static let warningLimit = 64
    private var moreWarnings = 0

    static let rootKeys: Set<String> = [
        "swagger", "info", "host", "basePath", "schemes", "consumes", "produces", "paths", "definitions",
        "parameters", "responses", "securityDefinitions", "security", "tags", "externalDocs",
    ]
    static let operationKeys: Set<String> = [
        "tags", "summary", "description", "externalDocs", "operationId", "consumes", "produces", "parameters",
        "responses", "schemes", "deprecated", "security",
    ]
    /// The keywords of a non-body parameter that describe its value: they move into `schema`.
    static let schemaKeys = [
        "type", "format", "items", "default", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
        "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "enum", "multipleOf", "x-nullable",
    ]

    init(root: OpenAPINode) { self.root = root }

    mutating func warn(_ text: String) {
        guard warnings.count < Self.warningLimit else {
            moreWarnings += 1
            return
        }
        warnings.append("Swagger 2.0: " + text)
    }

    mutating func record(_ converted: JSONPath, from original: JSONPath) {
        origins.append((converted.components, original))
    }

    static func pointer(_ path: JSONPath) -> String { IgnoredKeywords.pointer(path) }

    mutating func convertDocument() throws(ContractError) -> JSONValue {
        guard let version = try root.child("swagger") else { throw root.invalid("a 'swagger' member") }
        guard case .string(let text) = version.value, text == "2.0" else {
            throw version.invalid("the string '2.0' (Swagger 2.0)")
        }
        var output = JSONObject()
        output.append(key: "openapi", value: "3.0.3")
        output.append(key: "info", value: try root.child("info")?.value ?? .object(["title": "", "version": ""]))
        for (key, node) in try root.members() where !Self.rootKeys.contains(key) {
            if key.hasPrefix("x-") {
                output.append(key: key, value: node.value)
            } else {
                warn("'\(key)' at \(Self.pointer(node.path)) is not a Swagger 2.0 field: not converted")
            }
        }
        if let servers = try servers() { output.append(key: "servers", value: servers) }
        for key in ["tags", "externalDocs", "security"] {
            if let node = try root.child(key) { output.append(key: key, value: node.value) }
        }
        let consumes = try mediaTypes(root.child("consumes"))
        let produces = try mediaTypes(root.child("produces"))
        var paths = JSONObject()
        for (path, item) in try root.child("paths")?.members() ?? [] {
            if path.hasPrefix("x-") {
                paths.append(key: path, value: item.value)
                continue
            }
            paths.append(key: path, value: try pathItem(item, consumes: consumes, produces: produces))
        }
        output.append(key: "paths", value: .object(paths))
        let components = try components(produces: produces)
        if !components.isEmpty { output.append(key: "components", value: .object(components)) }
        if moreWarnings > 0 { warnings.append("Swagger 2.0: \(moreWarnings) more parts not converted") }
        return .object(output)
    }

    /// `host`, `basePath` and `schemes` as `servers`: one URL per scheme (https when none is
    /// named), or the base path alone (a relative URL) when there is no host. `schemes` are an
    /// operation's own when it names them, else the document's.
    func servers(schemes node: OpenAPINode? = nil) throws(ContractError) -> JSONValue? {
        let host = try root.optionalString("host")
        var basePath = try root.optionalString("basePath") ?? ""
        if basePath.hasSuffix("/") { basePath.removeLast() }
        if let base = try root.child("basePath"), !basePath.isEmpty, !basePath.hasPrefix("/") {
            throw base.invalid("a base path starting with '/'")
        }
        guard let host else { return basePath.isEmpty ? nil : .array([.object(["url": .string(basePath)])]) }
        var schemes: [String] = []
        var schemesNode = node
        if schemesNode == nil { schemesNode = try root.child("schemes") }
        for scheme in try schemesNode?.array() ?? [] {
            let name = try scheme.string()
            guard ["http", "https", "ws", "wss"].contains(name) else {
                throw scheme.invalid("a scheme http, https, ws or wss")
            }
            schemes.append(name)
        }
        // 2.0 means "the scheme the document was fetched with" when there are none: https is assumed.
        let urls = (schemes.isEmpty ? ["https"] : schemes).map { "\($0)://\(host)\(basePath)" }
        return .array(urls.map { .object(["url": .string($0)]) })
    }

    func mediaTypes(_ node: OpenAPINode?) throws(ContractError) -> [String]? {
        guard let node else { return nil }
        return try node.array().map { node throws(ContractError) in try node.string() }
    }

    // MARK: Components

    private mutating func components(produces: [String]?) throws(ContractError) -> JSONObject {
        var components = JSONObject()
        if let definitions = try root.child("definitions") {
            var schemas = JSONObject()
            for (name, node) in try definitions.members() {
                let converted = JSONPath(components: [.key("components"), .key("schemas"), .key(name)])
                record(converted, from: node.path)
                schemas.append(key: name, value: try schema(node, depth: 0))
            }
            components.append(key: "schemas", value: .object(schemas))
        }
        if let parameters = try root.child("parameters") {
            var converted = JSONObject()
            for (name, node) in try parameters.members() {
                let location = try node.optionalString("in")
                // Body and form parameters are written into each operation that uses them.
                guard location != "body" && location != "formData" else { continue }
                record(JSONPath(components: [.key("components"), .key("parameters"), .key(name)]), from: node.path)
                converted.append(key: name, value: try parameter(node))
            }
            if !converted.isEmpty { components.append(key: "parameters", value: .object(converted)) }
        }
        if let responses = try root.child("responses") {
            var converted = JSONObject()
            for (name, node) in try responses.members() {
                let path = JSONPath(components: [.key("components"), .key("responses"), .key(name)])
                converted.append(key: name, value: try response(node, produces: produces ?? [], at: path))
            }
            components.append(key: "responses", value: .object(converted))
        }
        if let definitions = try root.child("securityDefinitions") {
            var schemes = JSONObject()
            for (name, node) in try definitions.members() {
                record(
                    JSONPath(components: [.key("components"), .key("securitySchemes"), .key(name)]), from: node.path)
                schemes.append(key: name, value: try securityScheme(node))
            }
            components.append(key: "securitySchemes", value: .object(schemes))
        }
        return components
    }

    private mutating func securityScheme(_ node: OpenAPINode) throws(ContractError) -> JSONValue {
        let object = try node.object()
        let type = try node.child("type")?.string()
        switch type {
        case "basic":
            var converted = JSONObject([("type", "http"), ("scheme", "basic")])
            if let description = object["description"] { converted.append(key: "description", value: description) }
            for member in object.members where member.key.hasPrefix("x-") { converted.members.append(member) }
            return .object(converted)
        case "apiKey":
            return .object(object)
        case "oauth2":
            let flowNames = [
                "implicit": "implicit", "password": "password", "application": "clientCredentials",
                "accessCode": "authorizationCode",
            ]
            let flowNode = try node.child("flow")
            guard let flowNode, let flow = flowNames[try flowNode.string()] else {
                throw (flowNode ?? node).invalid("an oauth2 'flow': implicit, password, application or accessCode")
            }
            var flowObject = JSONObject()
            for key in ["authorizationUrl", "tokenUrl"] {
                if let value = object[key] { flowObject.append(key: key, value: value) }
            }
            flowObject.append(key: "scopes", value: object["scopes"] ?? .object([:]))
            var converted = JSONObject([("type", "oauth2")])
            if let description = object["description"] { converted.append(key: "description", value: description) }
            converted.append(key: "flows", value: .object([flow: .object(flowObject)]))
            return .object(converted)
        default:
            throw (try node.child("type") ?? node).invalid("a security type basic, apiKey or oauth2")
        }
    }

    // MARK: Schemas

    /// A 2.0 schema as a 3.0 schema: `$ref`s rewritten, `x-nullable` as `nullable`, `type: file`
    /// as a binary string, a `discriminator` name as an object.
    mutating func schema(_ node: OpenAPINode, depth: Int) throws(ContractError) -> JSONValue {
        guard depth < Swagger2Converter.depthLimit else { throw node.invalid("schemas nested at most 64 deep") }
        switch node.value {
        case .array:
            var elements: [JSONValue] = []
            for element in try node.array() { elements.append(try schema(element, depth: depth + 1)) }
            return .array(elements)
        case .object(let object):
            var converted = JSONObject()
            for member in object.members {
                let child = OpenAPINode(
                    value: member.value, path: node.path.appending(key: member.key), file: node.file)
                switch (member.key, member.value) {
                case ("$ref", .string(let reference)):
                    converted.append(key: "$ref", value: .string(try rewrite(reference, at: child)))
                case ("x-nullable", .bool(let flag)):
                    converted.append(key: "nullable", value: .bool(flag))
                case ("type", .string("file")):
                    converted.append(key: "type", value: "string")
                    if object["format"] == nil { converted.append(key: "format", value: "binary") }
                case ("discriminator", .string(let name)):
                    converted.append(key: "discriminator", value: .object(["propertyName": .string(name)]))
                case ("properties", .object), ("definitions", .object):
                    var properties = JSONObject()
                    for (name, property) in try child.members() {
                        properties.append(key: name, value: try schema(property, depth: depth + 1))
                    }
                    converted.append(key: member.key, value: .object(properties))
                case ("items", _), ("allOf", _), ("additionalProperties", .object), ("not", _), ("anyOf", _),
                    ("oneOf", _):
                    converted.append(key: member.key, value: try schema(child, depth: depth + 1))
                default:
                    converted.members.append(member)
                }
            }
            return .object(converted)
        default:
            return node.value
        }
    }

    /// A local `$ref` of 2.0 as the 3.0 one: `#/definitions/X` → `#/components/schemas/X`, and so
    /// on. A reference elsewhere is kept as it is.
    func rewrite(_ reference: String, at node: OpenAPINode) throws(ContractError) -> String {
        let prefixes = [
            ("#/definitions/", "#/components/schemas/"), ("#/parameters/", "#/components/parameters/"),
            ("#/responses/", "#/components/responses/"),
        ]
        for (old, new) in prefixes where reference.hasPrefix(old) { return new + reference.dropFirst(old.count) }
        return reference
    }

    /// The node a local `$ref` (2.0 form) points at, following chains, or nil.
    func resolve(_ node: OpenAPINode, depth: Int = 0) throws(ContractError) -> OpenAPINode {
        guard case .object(let object) = node.value, case .string(let reference)? = object["$ref"] else {
            return node
        }
        guard reference.hasPrefix("#/"), depth < 32 else {
            throw ContractError.unresolvedReference(file: node.file, path: node.path.description, reference: reference)
        }
        var current = root
        for token in reference.dropFirst(2).split(separator: "/", omittingEmptySubsequences: false) {
            let key = JSONPointerToken.unescape(token)
            guard case .object(let members) = current.value, members[key] != nil, let next = try current.child(key)
            else {
                throw ContractError.unresolvedReference(
                    file: node.file, path: node.path.appending(key: "$ref").description, reference: reference)
            }
            current = next
        }
        return try resolve(current, depth: depth + 1)
    }
}
