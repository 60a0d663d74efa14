import HTTPCore
import JSONKit

/// Reads an OpenAPI 3.1 (or 3.0) document, parsed into a JSON value, into a ``Contract``
/// (ContractKit adds reading files and bytes, JSON or YAML).
///
/// Understands `paths` with operations and path-level parameters, responses with JSON
/// content, `components/schemas` (and `components/responses`/`parameters` references),
/// `$ref`, `type` lists, 3.0's `nullable: true`, `allOf`/`anyOf`/`oneOf`, `enum`/`const`,
/// `format`, `additionalProperties`, `examples`/`example`, a parameter schema's `default`,
/// response `links` (as parameter sources), `components/securitySchemes` and `security`
/// (the document's and each operation's), parameters' `style`, `explode` and `allowReserved`,
/// request bodies' `encoding`, and the `x-swift-type`, `x-swift-property`, `x-faker` and
/// `x-petkit-source` extensions. Problems are ``ContractError``s naming
/// the file and JSON path.
public struct OpenAPIReader: Sendable {
    package static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
    /// The operation keys of a path item: the methods an operation can have, lower case.
    public static var methodNames: [String] { methods }

    /// Creates a reader.
    public init() {}

    /// Reads a contract from a parsed document.
    /// A Swagger 2.0 document (`swagger: "2.0"`) is first converted to OpenAPI 3.0 by
    /// ``Swagger2Converter``; its errors and warnings then name places in the 2.0 document.
    public func read(_ document: JSONValue, source: String) throws(ContractError) -> Contract {
        guard Swagger2Converter.isSwagger2(document) else {
            var state = OpenAPIReadState(document: document, file: source)
            return try state.readContract()
        }
        let conversion = try Swagger2Converter().convert(document, source: source)
        var state = OpenAPIReadState(document: conversion.document, file: source)
        do throws(ContractError) {
            var contract = try state.readContract()
            contract.ignoredKeywords =
                conversion.warnings
                + contract.ignoredKeywords.map { $0.replacing("#/components/schemas/", with: "#/definitions/") }
            return contract
        } catch {
            switch error {
            case .invalidContract(let file, let path, let expected, let found):
                throw .invalidContract(
                    file: file, path: conversion.originalPath(path), expected: expected, found: found)
            case .unresolvedReference(let file, let path, let reference):
                throw .unresolvedReference(
                    file: file, path: conversion.originalPath(path),
                    reference: Swagger2Converter.originalReference(reference))
            default: throw error
            }
        }
    }

    /// Reads a contract from a document's JSON bytes; `source` names it in errors.
    public func read(json bytes: [UInt8], source: String) throws(ContractError) -> Contract {
        try read(try Self.jsonDocument(bytes, source: source), source: source)
    }

    /// The JSON value of a document's JSON bytes.
    public static func jsonDocument(_ bytes: [UInt8], source: String) throws(ContractError) -> JSONValue {
        do {
            return try JSONValue(parsing: bytes)
        } catch {
            throw .notJSON(file: source, error: error)
        }
    }

    /// Whether a document's bytes are YAML rather than JSON: by the file's extension (`.yaml`,
    /// `.yml`; `.json`), else by the first character that is not a space or a byte-order mark
    /// (JSON documents open with `{`).
    public static func isYAML(_ bytes: [UInt8], source: String) -> Bool {
        let lowered = source.lowercased()
        if lowered.hasSuffix(".yaml") || lowered.hasSuffix(".yml") { return true }
        if lowered.hasSuffix(".json") { return false }
        var rest = bytes[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        let first = rest.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return first != UInt8(ascii: "{")
    }
}

/// One read: the document, for resolving local `$ref`s.
struct OpenAPIReadState {
    let document: JSONValue
    let file: String
    /// Whether an operation must have `responses`: 3.0 requires them, 3.1 does not.
    var responsesRequired = true
    var root: OpenAPINode { OpenAPINode(value: document, path: .root, file: file) }
    /// The schema keywords met that are neither checked nor generated.
    let ignored = IgnoredKeywords()

    init(document: JSONValue, file: String) {
        self.document = document
        self.file = file
    }

    mutating func readContract() throws(ContractError) -> Contract {
        let root = self.root
        guard let versionNode = try root.child("openapi") else {
            throw ContractError.invalidContract(
                file: file, path: "$.openapi", expected: "an OpenAPI version such as '3.1.0'", found: "none")
        }
        let version = try versionNode.string()
        guard version.hasPrefix("3.") else { throw versionNode.invalid("OpenAPI 3.0 or 3.1") }
        responsesRequired = version.hasPrefix("3.0")
        let info = try root.child("info")
        var contract = Contract(
            title: try info?.optionalString("title") ?? "", version: try info?.optionalString("version") ?? "",
            description: try info?.optionalString("description"))
        for server in try root.child("servers")?.array() ?? [] {
            if let url = try server.optionalString("url") { contract.servers.append(url) }
        }
        if let schemas = try root.child("components")?.child("schemas") {
            // Assigned once: each change of the components indexes them again.
            var components: [NamedSchema] = []
            for (name, node) in try schemas.members() {
                components.append(NamedSchema(name: name, schema: try readSchema(node, depth: 0)))
            }
            contract.components = components
        }
        contract.securitySchemes = try readSecuritySchemes()
        contract.security = try root.child("security").map { node throws(ContractError) in try readSecurity(node) }
        if let paths = try root.child("paths") {
            for (path, item) in try paths.members() {
                guard path.hasPrefix("/") else { throw item.invalid("a path starting with '/' as the key") }
                contract.operations.append(contentsOf: try readPathItem(path, item))
                for (key, node) in try resolve(item).members() where OpenAPIReader.methods.contains(key) {
                    for (name, _) in try node.child("callbacks")?.members() ?? [] {
                        contract.unverified.append(
                            "callback '\(name)' of \(key.uppercased()) \(path): a request the API sends, not verified")
                    }
                }
            }
        }
        for (name, _) in try root.child("webhooks")?.members() ?? [] {
            contract.unverified.append("webhook '\(name)': a request the API sends, not verified")
        }
        try checkReferences(contract)
        try readLinks(into: &contract)
        contract.ignoredKeywords = ignored.lines
        return contract
    }

    private func readPathItem(_ path: String, _ item: OpenAPINode) throws(ContractError) -> [ContractOperation] {
        let item = try resolve(item)
        var shared: [ContractParameter] = []
        if let parameters = try item.child("parameters") {
            for node in try parameters.array() { shared.append(try readParameter(node)) }
        }
        var operations: [ContractOperation] = []
        for (key, node) in try item.members() where OpenAPIReader.methods.contains(key) {
            var operation = ContractOperation(
                method: HTTPMethod(rawValue: key.uppercased()), path: path,
                operationId: try node.optionalString("operationId"), summary: try node.optionalString("summary"))
            var parameters = shared
            if let own = try node.child("parameters") {
                for parameterNode in try own.array() {
                    let parameter = try readParameter(parameterNode)
                    parameters.removeAll { $0.name == parameter.name && $0.location == parameter.location }
                    parameters.append(parameter)
                }
            }
            operation.parameters = parameters
            if let body = try node.child("requestBody") { operation.requestBody = try readRequestBody(body) }
            operation.security = try node.child("security").map { node throws(ContractError) in
                try readSecurity(node)
            }
            let responses = try node.child("responses")
            if responses == nil && responsesRequired {
                throw ContractError.invalidContract(
                    file: file, path: node.path.appending(key: "responses").description,
                    expected: "a responses object (OpenAPI 3.0 requires one on every operation)", found: "none")
            }
            for (status, responseNode) in try responses?.members() ?? [] {
                operation.responses.append(try readResponse(status, responseNode))
            }
            operation.callbacks = try readCallbacks(node)
            for server in try node.child("servers")?.array() ?? [] {
                guard let url = try server.optionalString("url") else { throw server.invalid("a server with a 'url'") }
                operation.servers.append(url)
            }
            operations.append(operation)
        }
        return operations
    }

    /// An operation's `callbacks`: each callback's path items, each of their operations one
    /// ``ContractCallback`` (the key kept as written: petmock reads it as a runtime expression).
    private func readCallbacks(_ operation: OpenAPINode) throws(ContractError) -> [ContractCallback] {
        var callbacks: [ContractCallback] = []
        for (name, callbackNode) in try operation.child("callbacks")?.members() ?? [] {
            for (expression, itemNode) in try resolve(callbackNode).members() {
                let item = try resolve(itemNode)
                var shared: [ContractParameter] = []
                for node in try item.child("parameters")?.array() ?? [] { shared.append(try readParameter(node)) }
                for (key, node) in try item.members() where OpenAPIReader.methods.contains(key) {
                    var parameters = shared
                    for parameterNode in try node.child("parameters")?.array() ?? [] {
                        let parameter = try readParameter(parameterNode)
                        parameters.removeAll { $0.name == parameter.name && $0.location == parameter.location }
                        parameters.append(parameter)
                    }
                    callbacks.append(
                        ContractCallback(
                            name: name, expression: expression,
                            pointer: IgnoredKeywords.pointer(callbackNode.path.appending(key: expression)),
                            method: HTTPMethod(rawValue: key.uppercased()), parameters: parameters,
                            requestBody: try node.child("requestBody").map { node throws(ContractError) in
                                try readRequestBody(node)
                            }))
                }
            }
        }
        return callbacks
    }

    private func readParameter(_ node: OpenAPINode) throws(ContractError) -> ContractParameter {
        let node = try resolve(node)
        guard let name = try node.optionalString("name") else { throw node.invalid("a parameter with a 'name'") }
        let locationText = try node.optionalString("in") ?? ""
        guard let location = ContractParameter.Location(rawValue: locationText) else {
            throw node.invalid("a parameter 'in' path, query, header or cookie")
        }
        var parameter = ContractParameter(
            name: name, location: location, required: try node.child("required")?.bool() ?? (location == .path),
            description: try node.optionalString("description"))
        parameter.style = try node.optionalString("style")
        parameter.explode = try node.child("explode")?.bool()
        parameter.allowReserved = try node.child("allowReserved")?.bool() ?? false
        if let schema = try node.child("schema") {
            parameter.schema = try readSchema(schema, depth: 0)
            // A parameter's default is its own (the writer puts it back in the schema).
            parameter.schema.defaultValue = nil
            if case .object(let object) = try resolve(schema).value { parameter.defaultValue = object["default"] }
        }
        // The parameter's own examples, then its schema's, each value once: the writer puts them
        // in both places, so adding them up would grow the list on every write and read.
        let examples = (try readExamples(node)) + parameter.schema.examples
        for example in examples where !parameter.examples.contains(example) { parameter.examples.append(example) }
        if let sources = try node.child("x-petkit-source") {
            for source in try sources.array() {
                guard let operation = try source.optionalString("operation"),
                    let path = try source.optionalString("path")
                else { throw source.invalid("an object with 'operation' and 'path'") }
                do {
                    _ = try JSONPath(path)
                } catch {
                    throw ContractError.invalidContract(
                        file: file, path: source.path.description, expected: "a valid JSONPath", found: "\(error)")
                }
                parameter.sources.append(ParameterSource(operation: operation, path: path))
            }
        }
        return parameter
    }

    /// `example` and the values of an `examples` map.
    private func readExamples(_ node: OpenAPINode) throws(ContractError) -> [JSONValue] {
        var examples: [JSONValue] = []
        if let example = try node.child("example") { examples.append(example.value) }
        if let map = try node.child("examples") {
            for (_, entry) in try map.members() {
                if let value = try resolve(entry).child("value") { examples.append(value.value) }
            }
        }
        return examples
    }

    /// A response header: `required`, `schema`, and its example (`example`, `examples`, the schema's).
    private func readHeader(_ name: String, _ node: OpenAPINode) throws(ContractError) -> ResponseHeader {
        let node = try resolve(node)
        let schema = try node.child("schema").map { node throws(ContractError) in try readSchema(node, depth: 0) }
        let example = try readExamples(node).first ?? schema?.examples.first ?? schema?.enumValues?.first
        return ResponseHeader(
            name: name, required: try node.child("required")?.bool() ?? false, schema: schema, example: example)
    }

    private func readRequestBody(_ node: OpenAPINode) throws(ContractError) -> ContractRequestBody {
        let node = try resolve(node)
        var body = ContractRequestBody(
            required: try node.child("required")?.bool() ?? false, description: try node.optionalString("description"))
        for (mediaType, mediaNode) in try node.child("content")?.members() ?? []
        where !body.content.contains(where: { $0.mediaType == mediaType }) {
            let schema = try mediaNode.child("schema")
            var encoding: [String: ContractEncoding] = [:]
            for (property, entry) in try mediaNode.child("encoding")?.members() ?? [] {
                var read = ContractEncoding(
                    contentType: try entry.optionalString("contentType"), style: try entry.optionalString("style"),
                    explode: try entry.child("explode")?.bool(),
                    allowReserved: try entry.child("allowReserved")?.bool() ?? false)
                for (name, header) in try entry.child("headers")?.members() ?? [] {
                    // OpenAPI: headers apply to multipart parts only, and `Content-Type` is
                    // `contentType`'s.
                    if !mediaType.lowercased().hasPrefix("multipart/") {
                        ignored.noteUnchecked(
                            "encoding header '\(name)' of the field '\(property)'", at: header.path,
                            consequence: "headers apply to multipart parts only: not checked")
                    } else if name.lowercased() == "content-type" {
                        ignored.noteUnchecked(
                            "encoding header 'Content-Type' of the part '\(property)'", at: header.path,
                            consequence: "a part's media type is its encoding's 'contentType': not checked")
                    } else {
                        read.headers.append(try readHeader(name, header))
                    }
                }
                encoding[property] = read
            }
            body.content.append(
                ContractMediaType(
                    mediaType: mediaType,
                    schema: try schema.map { node throws(ContractError) in
                        try readSchema(node, depth: 0)
                    }, encoding: encoding))
        }
        return body
    }

    private func readResponse(_ status: String, _ node: OpenAPINode) throws(ContractError) -> ContractResponse {
        let validStatus =
            status == "default" || (status.count == 3 && status.first.map { "12345".contains($0) } == true)
        guard validStatus else { throw node.invalid("a status code, 'NXX' or 'default' as the key") }
        let node = try resolve(node)
        var response = ContractResponse(
            status: status, description: try node.optionalString("description") ?? "", mediaType: nil)
        for (name, header) in try node.child("headers")?.members() ?? [] {
            response.headers.append(try readHeader(name, header))
        }
        guard let content = try node.child("content") else { return response }
        // A key that is no media type (`description: ok` written one level too deep) names no
        // content: it is left out, and said so, rather than served as a media type.
        let media = try content.members().filter { entry in
            guard !Self.isMediaRange(entry.key) else { return true }
            ignored.noteUnchecked(
                "content key '\(entry.key)'", at: entry.node.path,
                consequence: "not a media type (type/subtype): the entry is ignored")
            return false
        }
        let chosen =
            media.first { $0.key.lowercased() == "application/json" }
            ?? media.first { $0.key.lowercased().hasSuffix("+json") || $0.key.lowercased().contains("json") }
            ?? media.first
        guard let (mediaType, mediaNode) = chosen else { return response }
        response.mediaType = mediaType
        response.mediaTypePosition = media.firstIndex { $0.key == mediaType } ?? 0
        if let schema = try mediaNode.child("schema") {
            let read = try readSchema(schema, depth: 0)
            response.schema = read
            response.swiftType = read.swiftType
        }
        response.examples = try readExamples(mediaNode)
        response.namedExamples = try readNamedExamples(mediaNode)
        for (other, node) in media where other != mediaType {
            // Other media types serve mocks only: a schema that does not read leaves it undescribed.
            let schema = try? node.child("schema").map { node throws(ContractError) in try readSchema(node, depth: 0) }
            response.otherContent.append(
                ResponseContent(
                    mediaType: other, schema: schema ?? nil, examples: (try? readExamples(node)) ?? [],
                    namedExamples: (try? readNamedExamples(node)) ?? []))
        }
        return response
    }

    /// Whether a `content` key is a media type or range: `type/subtype`, parameters allowed.
    static func isMediaRange(_ key: String) -> Bool {
        let essence = (key.split(separator: ";", maxSplits: 1).first ?? "").filter { $0 != " " && $0 != "\t" }
        let parts = essence.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { !$0.isEmpty }
    }

    /// The entries of an `examples` map with a `value`, by name.
    private func readNamedExamples(_ node: OpenAPINode) throws(ContractError) -> [NamedExample] {
        var named: [NamedExample] = []
        for (name, entry) in try node.child("examples")?.members() ?? [] {
            if let value = try resolve(entry).child("value") {
                named.append(NamedExample(name: name, value: value.value))
            }
        }
        return named
    }
}

/// The schema keywords a read met that petkit neither checks nor generates, each keyword and
/// place once, at most ``limit`` lines (then one line counting the rest).
final class IgnoredKeywords {
    /// Assertions of JSON Schema 2020-12 (and draft 7's `dependencies`) the model has no field for.
    static let keywords = [
        "patternProperties", "propertyNames", "dependentRequired", "dependentSchemas", "dependencies", "if",
        "unevaluatedProperties", "unevaluatedItems", "$dynamicRef", "$recursiveRef",
    ]
    static let limit = 32
    private var seen: Set<String> = []
    private var more = 0
    private(set) var entries: [String] = []

    /// Notes each ignored keyword of a schema object at `path`.
    func note(_ object: JSONObject, at path: JSONPath) {
        for keyword in Self.keywords where object[keyword] != nil {
            let pointer = Self.pointer(path.appending(key: keyword))
            guard seen.insert(pointer).inserted else { continue }
            guard entries.count < Self.limit else {
                more += 1
                continue
            }
            let name = keyword == "if" ? "if/then/else" : keyword
            entries.append(
                "schema keyword '\(name)' at \(pointer) is not supported: ignored when validating and generating")
        }
    }

    /// Notes a field of the document petkit reads but does not check.
    func noteUnchecked(_ what: String, at path: JSONPath, consequence: String) {
        let pointer = Self.pointer(path)
        guard seen.insert(pointer).inserted else { return }
        guard entries.count < Self.limit else {
            more += 1
            return
        }
        entries.append("\(what) at \(pointer) is not supported: \(consequence)")
    }

    /// Notes an `x-faker` key petkit does not make.
    func noteFaker(_ key: String, at path: JSONPath) {
        let pointer = Self.pointer(path)
        guard seen.insert(pointer).inserted else { return }
        guard entries.count < Self.limit else {
            more += 1
            return
        }
        let nearest = StringDistance.nearest(to: key, among: RealisticText.fakerKeys.keys.sorted())
        let hint = nearest.map { " (did you mean '\($0)'?)" } ?? ""
        entries.append(
            "x-faker '\(key)' at \(pointer) is not supported\(hint): the string follows the property's name and format")
    }

    var lines: [String] {
        more == 0 ? entries : entries + ["\(more) more unsupported schema keywords ignored"]
    }

    /// A path as a JSON pointer (RFC 6901: `~` as `~0`, `/` as `~1`).
    static func pointer(_ path: JSONPath) -> String {
        let tokens = path.components.map { component -> String in
            switch component {
            case .key(let key): JSONPointerToken.escape(key)
            case .index(let index): String(index)
            default: "*"
            }
        }
        return "#/" + tokens.joined(separator: "/")
    }
}
