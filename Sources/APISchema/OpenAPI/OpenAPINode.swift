import JSONKit

/// A value in an OpenAPI document with its path, for reading with errors that say where.
struct OpenAPINode {
    let value: JSONValue
    let path: JSONPath
    let file: String

    func invalid(_ expected: String) -> ContractError {
        .invalidContract(file: file, path: path.description, expected: expected, found: OpenAPINode.describe(value))
    }

    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): "boolean \(flag)"
        case .int, .number: "number \(value.serialized())"
        case .string(let text): "string '\(text.count > 40 ? String(text.prefix(37)) + "..." : text)'"
        case .array: "an array"
        case .object: "an object"
        }
    }

    func object() throws(ContractError) -> JSONObject {
        guard case .object(let object) = value else { throw invalid("an object") }
        return object
    }

    func array() throws(ContractError) -> [OpenAPINode] {
        guard case .array(let elements) = value else { throw invalid("an array") }
        return elements.enumerated().map {
            OpenAPINode(value: $0.element, path: path.appending(index: $0.offset), file: file)
        }
    }

    func string() throws(ContractError) -> String {
        guard case .string(let text) = value else { throw invalid("a string") }
        return text
    }

    func bool() throws(ContractError) -> Bool {
        guard case .bool(let flag) = value else { throw invalid("a boolean") }
        return flag
    }

    /// The member `key`, or nil when absent; throws when this is not an object.
    func child(_ key: String) throws(ContractError) -> OpenAPINode? {
        guard let member = try object()[key] else { return nil }
        return OpenAPINode(value: member, path: path.appending(key: key), file: file)
    }

    /// The members in order as nodes; throws when this is not an object.
    func members() throws(ContractError) -> [(key: String, node: OpenAPINode)] {
        try object().members.map {
            ($0.key, OpenAPINode(value: $0.value, path: path.appending(key: $0.key), file: file))
        }
    }

    func optionalString(_ key: String) throws(ContractError) -> String? {
        try child(key)?.string()
    }
}
