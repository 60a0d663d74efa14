import HTTPCore
import JSONKit

/// What a healthy server for an OpenAPI document answers: for each operation, its first
/// success response with the document's example, or a value built from the schema when the
/// document has none. The raw document is read here on purpose (not through ContractKit), so
/// the corpus tests check the reader against an independent reading.
struct ExampleResponses {
    struct Route: Sendable {
        let method: HTTPMethod
        let template: String
        let status: Int
        let body: JSONValue?

        var key: String { "\(method.rawValue) \(template)" }

        func matches(method: HTTPMethod, path: Substring) -> Bool {
            let wanted = template.split(separator: "/", omittingEmptySubsequences: false)
            let given = path.split(separator: "/", omittingEmptySubsequences: false)
            guard method == self.method, wanted.count == given.count else { return false }
            return zip(wanted, given).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
        }
    }

    let document: JSONValue
    static let methods = ["get", "put", "post", "delete", "patch"]

    /// Follows local `$ref`s (`#/components/...`).
    func resolve(_ value: JSONValue) -> JSONValue {
        var current = value
        for _ in 0..<16 {
            guard let reference = current["$ref"]?.stringValue, reference.hasPrefix("#/") else { return current }
            var target: JSONValue? = document
            for part in reference.dropFirst(2).split(separator: "/") { target = target?[String(part)] }
            guard let target else { return current }
            current = target
        }
        return current
    }

    var routes: [Route] {
        var routes: [Route] = []
        for path in document["paths"]?.objectValue?.members ?? [] {
            for method in ExampleResponses.methods {
                guard let operation = path.value[method] else { continue }
                let responses = operation["responses"]?.objectValue?.members ?? []
                guard let success = responses.first(where: { $0.key.hasPrefix("2") }) else { continue }
                let response = resolve(success.value)
                let media = response["content"]?.objectValue?.members.first { $0.key.contains("json") }?.value
                var body: JSONValue?
                if let media {
                    if let example = media["example"] {
                        body = example
                    } else if let first = media["examples"]?.objectValue?.members.first {
                        body = resolve(first.value)["value"]
                    } else if let schema = media["schema"] {
                        body = sample(schema, depth: 0)
                    }
                }
                routes.append(
                    Route(
                        method: HTTPMethod(rawValue: method.uppercased()), template: path.key,
                        status: Int(success.key) ?? 200, body: body))
            }
        }
        return routes
    }

    /// A value for every parameter the document names, from its example or its schema.
    var parameterValues: [(name: String, value: String)] {
        var values: [(String, String)] = []
        var seen: Set<String> = []
        var parameters: [JSONValue] = []
        for path in document["paths"]?.objectValue?.members ?? [] {
            parameters += path.value["parameters"]?.arrayValue ?? []
            for method in ExampleResponses.methods {
                parameters += path.value[method]?["parameters"]?.arrayValue ?? []
            }
        }
        for raw in parameters {
            let parameter = resolve(raw)
            guard let name = parameter["name"]?.stringValue, seen.insert(name).inserted else { continue }
            let value = parameter["example"] ?? parameter["schema"].map { sample($0, depth: 0) } ?? "x"
            switch value {
            case .string(let text): values.append((name, text))
            case .int(let number): values.append((name, String(number)))
            case .number(let number): values.append((name, number.text))
            case .bool(let flag): values.append((name, String(flag)))
            default: values.append((name, "x"))
            }
        }
        return values
    }

    /// A value the schema accepts: its const, first enum value or example, else one built by type.
    func sample(_ raw: JSONValue, depth: Int) -> JSONValue {
        let schema = resolve(raw)
        guard depth < 12 else { return .null }
        if let value = schema["const"] ?? schema["enum"]?.arrayValue?.first ?? schema["example"] { return value }
        if let parts = schema["allOf"]?.arrayValue {
            var merged = JSONObject()
            for part in parts {
                for member in sample(part, depth: depth + 1).objectValue?.members ?? [] {
                    merged[member.key] = member.value
                }
            }
            return .object(merged)
        }
        if let first = (schema["oneOf"] ?? schema["anyOf"])?.arrayValue?.first {
            return sample(first, depth: depth + 1)
        }
        let type = schema["type"]?.stringValue ?? schema["type"]?.arrayValue?.compactMap(\.stringValue).first
        switch type ?? (schema["properties"] != nil ? "object" : "string") {
        case "object":
            var object = JSONObject()
            for member in schema["properties"]?.objectValue?.members ?? []
            where resolve(member.value)["writeOnly"] != true {
                object[member.key] = sample(member.value, depth: depth + 1)
            }
            return .object(object)
        case "array":
            let count = max(schema["minItems"]?.intValue.map(Int.init) ?? 1, 1)
            let item = schema["items"].map { sample($0, depth: depth + 1) } ?? "x"
            return .array(Array(repeating: item, count: count))
        case "integer": return .int(schema["minimum"]?.intValue ?? 1)
        case "number": return .int(schema["minimum"]?.intValue ?? 1)
        case "boolean": return true
        case "null": return .null
        default:
            switch schema["format"]?.stringValue {
            case "date-time": return "2026-11-30T12:00:00Z"
            case "date": return "2026-11-30"
            case "email": return "octocat@example.com"
            case "uri", "url": return "https://example.com/x"
            case "uuid": return "123e4567-e89b-12d3-a456-426614174000"
            default: return "x"
            }
        }
    }
}
