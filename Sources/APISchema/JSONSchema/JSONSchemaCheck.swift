import JSONKit
import LinearRegex

/// The JSON Schema keywords the validator implements (drafts 4 to 2020-12, and OpenAPI 3.0's
/// `nullable`), and the check of a standalone schema before it is used (a stub's
/// `matchesJsonSchema`, when the stub loads): every keyword known and of the right kind, every
/// `pattern` compiled, every `$ref` resolvable inside the schema. A keyword not implemented is
/// an error naming it: a schema is never applied with a part of it ignored.
enum JSONSchemaCheck {
    /// Keywords that only describe (they never make a value fail).
    static let annotations: Set<String> = [
        "$schema", "$id", "id", "title", "description", "default", "examples", "$comment", "definitions", "$defs",
        "readOnly", "writeOnly", "deprecated",
    ]
    /// Keywords that validate.
    static let assertions: Set<String> = [
        "type", "enum", "const", "properties", "required", "additionalProperties", "items", "minItems", "maxItems",
        "uniqueItems", "minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum",
        "exclusiveMaximum", "multipleOf", "minProperties", "maxProperties", "allOf", "anyOf", "oneOf", "not", "$ref",
        "format", "prefixItems", "nullable", "contains", "minContains", "maxContains",
    ]
    static var formats: Set<String> { FormatCheck.formats }
    static let types: Set<String> = ["null", "boolean", "integer", "number", "string", "array", "object"]
    /// How deeply schemas may nest.
    static let maximumDepth = 64

    /// Checks the schema; throws what is wrong and where.
    static func check(_ root: JSONValue) throws(JSONSchemaError) {
        var regexes: [String: LinearTimeRegex] = [:]
        try check(root, root: root, at: "#", depth: 0, regexes: &regexes)
    }

    private static func fail(_ path: String, _ reason: String) -> JSONSchemaError {
        JSONSchemaError(path: path, reason: reason)
    }

    private static func check(
        _ schema: JSONValue, root: JSONValue, at path: String, depth: Int, regexes: inout [String: LinearTimeRegex]
    ) throws(JSONSchemaError) {
        guard depth <= maximumDepth else { throw fail(path, "the schema nests deeper than \(maximumDepth) levels") }
        if case .bool = schema { return }
        guard case .object(let object) = schema else { throw fail(path, "a schema must be an object or a Boolean") }
        for member in object.members {
            let here = "\(path)/\(member.key)"
            if annotations.contains(member.key) {
                if member.key == "definitions" || member.key == "$defs" {
                    guard case .object(let definitions) = member.value else { throw fail(here, "must be an object") }
                    for definition in definitions.members {
                        try check(
                            definition.value, root: root, at: "\(here)/\(definition.key)", depth: depth + 1,
                            regexes: &regexes)
                    }
                } else if ["$schema", "$id", "id"].contains(member.key), member.value.stringValue == nil {
                    throw fail(here, "'\(member.key)' must be a string")
                }
                continue
            }
            guard assertions.contains(member.key) else {
                throw fail(
                    here,
                    "the keyword '\(member.key)' is not supported by petmock's matchesJsonSchema (it supports "
                        + assertions.sorted().joined(separator: ", ") + ")")
            }
            try checkKeyword(member.key, member.value, root: root, at: here, depth: depth, regexes: &regexes)
        }
    }

    private static func checkKeyword(
        _ key: String, _ value: JSONValue, root: JSONValue, at here: String, depth: Int,
        regexes: inout [String: LinearTimeRegex]
    ) throws(JSONSchemaError) {
        switch key {
        case "type":
            let names = value.arrayValue?.compactMap(\.stringValue) ?? value.stringValue.map { [$0] } ?? []
            guard !names.isEmpty, names.allSatisfy(types.contains),
                value.stringValue != nil || names.count == value.arrayValue?.count
            else { throw fail(here, "'type' must name JSON types (\(types.sorted().joined(separator: ", ")))") }
        case "enum": guard value.arrayValue != nil else { throw fail(here, "'enum' must be an array") }
        case "const": break
        case "properties":
            guard case .object(let properties) = value else { throw fail(here, "'properties' must be an object") }
            for property in properties.members {
                try check(
                    property.value, root: root, at: "\(here)/\(property.key)", depth: depth + 1, regexes: &regexes)
            }
        case "required":
            guard let names = value.arrayValue, names.allSatisfy({ $0.stringValue != nil }) else {
                throw fail(here, "'required' must be an array of property names")
            }
        case "additionalProperties", "items", "not", "contains":
            try check(value, root: root, at: here, depth: depth + 1, regexes: &regexes)
        case "nullable": guard value.boolValue != nil else { throw fail(here, "'nullable' must be a Boolean") }
        case "prefixItems":
            guard let schemas = value.arrayValue else { throw fail(here, "'prefixItems' must be an array of schemas") }
            for (index, schema) in schemas.enumerated() {
                try check(schema, root: root, at: "\(here)/\(index)", depth: depth + 1, regexes: &regexes)
            }
        case "allOf", "anyOf", "oneOf":
            guard let schemas = value.arrayValue, !schemas.isEmpty else {
                throw fail(here, "'\(key)' must be a non-empty array of schemas")
            }
            for (index, schema) in schemas.enumerated() {
                try check(schema, root: root, at: "\(here)/\(index)", depth: depth + 1, regexes: &regexes)
            }
        case "minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties", "minContains",
            "maxContains":
            guard let count = value.intValue, count >= 0 else {
                throw fail(here, "'\(key)' must be a whole number ≥ 0")
            }
        case "uniqueItems": guard value.boolValue != nil else { throw fail(here, "'uniqueItems' must be a Boolean") }
        case "minimum", "maximum":
            guard value.doubleValue != nil else { throw fail(here, "'\(key)' must be a number") }
        case "exclusiveMinimum", "exclusiveMaximum":
            // A number (draft 6 on) or a Boolean beside minimum/maximum (draft 4).
            guard value.doubleValue != nil || value.boolValue != nil else {
                throw fail(here, "'\(key)' must be a number or a Boolean")
            }
        case "multipleOf":
            guard let divisor = value.doubleValue, divisor > 0 else { throw fail(here, "'multipleOf' must be > 0") }
        case "pattern":
            guard let text = value.stringValue else { throw fail(here, "'pattern' must be a string") }
            // Longer patterns are not applied (``ValidationPlan/patternLimit``): refused, not ignored.
            guard text.count <= ValidationPlan.patternLimit else {
                throw fail(here, "'pattern' is longer than \(ValidationPlan.patternLimit) characters")
            }
            // JSON Schema's pattern is found anywhere in the string; LinearTimeRegex matches whole strings.
            do {
                regexes[text] = try LinearTimeRegex("(?s).*(?:\(text)).*")
            } catch {
                throw fail(here, "'pattern' '\(text)' is not a regular expression: \(error.reason)")
            }
        case "format":
            guard let format = value.stringValue, formats.contains(format) else {
                throw fail(
                    here,
                    "the format \(value.stringValue.map { "'\($0)'" } ?? "value") is not supported (petmock checks "
                        + formats.sorted().joined(separator: ", ") + ")")
            }
        case "$ref":
            guard let reference = value.stringValue, resolve(reference, in: root) != nil else {
                throw fail(
                    here,
                    "the reference \(value.stringValue.map { "'\($0)'" } ?? "") cannot be resolved inside the schema")
            }
        default: break
        }
    }

    /// The schema a `#...` JSON Pointer reference names inside the root, or nil.
    static func resolve(_ reference: String, in root: JSONValue) -> JSONValue? {
        guard reference.hasPrefix("#") else { return nil }
        let pointer = reference.dropFirst()
        if pointer.isEmpty { return root }
        guard pointer.hasPrefix("/") else { return nil }
        var node = root
        for token in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let key = token.replacingEscapes()
            switch node {
            case .object(let object):
                guard let next = object[key] else { return nil }
                node = next
            case .array(let array):
                guard let index = Int(key), array.indices.contains(index) else { return nil }
                node = array[index]
            default: return nil
            }
        }
        return node
    }
}

extension Substring {
    /// A JSON Pointer token with `~1` and `~0` read back as `/` and `~`.
    fileprivate func replacingEscapes() -> String {
        var result = ""
        var iterator = makeIterator()
        while let character = iterator.next() {
            guard character == "~" else {
                result.append(character)
                continue
            }
            switch iterator.next() {
            case "1": result.append("/")
            case "0": result.append("~")
            case let other?: result += "~" + String(other)
            case nil: result.append("~")
            }
        }
        return result
    }
}
