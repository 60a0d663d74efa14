import JSONKit

/// The `{{name}}` variables of a Postman collection and its environment, and their resolution
/// in text: a variable's value may use others, resolved to a bounded depth and length, so no
/// collection makes the reader do unbounded work.
public struct PostmanVariables: Sendable, Hashable {
    /// The values by name; an environment's replace a collection's of the same name.
    public private(set) var values: [String: String]

    /// How deep variables inside variables' values are resolved.
    static let maxDepth = 8
    /// The longest resolved text; past it, the rest of the variables are left as written.
    static let maxLength = 1 << 16

    /// Variables with these values.
    public init(_ values: [String: String] = [:]) {
        self.values = values
    }

    /// Adds (or replaces) these values.
    public mutating func merge(_ other: [String: String]) {
        values.merge(other) { _, new in new }
    }

    /// The text with every variable that has a value replaced by it; the names of those that
    /// have none (Postman's dynamic variables such as `{{$guid}}` among them) are returned, and
    /// they stay in the text as written.
    public func resolve(_ text: String) -> (text: String, unresolved: [String]) {
        guard text.contains("{{") else { return (text, []) }
        var unresolved: [String] = []
        var length = 0
        let result = resolve(text, depth: 0, unresolved: &unresolved, length: &length)
        return (result, unresolved)
    }

    private func resolve(_ text: String, depth: Int, unresolved: inout [String], length: inout Int) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstRange(of: "{{") {
            result += rest[..<open.lowerBound]
            let afterOpen = rest[open.upperBound...]
            guard let close = afterOpen.firstRange(of: "}}") else {
                rest = rest[open.lowerBound...]
                break
            }
            let name = String(afterOpen[..<close.lowerBound])
            // `{{a{{b}}`: the first braces are text, the variable starts at the second.
            if name.contains("{{") {
                result += "{{"
                rest = afterOpen
                continue
            }
            let written = "{{\(name)}}"
            if let value = values[name], depth < Self.maxDepth, length + value.utf8.count <= Self.maxLength {
                length += value.utf8.count
                result += resolve(value, depth: depth + 1, unresolved: &unresolved, length: &length)
            } else {
                if !unresolved.contains(name) { unresolved.append(name) }
                result += written
            }
            rest = afterOpen[close.upperBound...]
        }
        result += rest
        return result
    }

    /// The variables of a `variable` array (`[{key, value, disabled}]`) or of an environment's
    /// `values` (`[{key, value, enabled}]`): disabled ones left out; a value that is not text is
    /// written as JSON text; an entry that is not an object with a string `key` is a problem.
    static func read(
        _ array: [JSONValue], at path: JSONPath, file: String, problems: inout [StubProblem]
    ) -> [String: String] {
        var values: [String: String] = [:]
        for (index, entry) in array.enumerated() {
            let here = path.appending(index: index)
            guard let key = entry["key"]?.stringValue else {
                problems.append(
                    StubProblem(
                        .warning, .wrongType, file: file, path: here.description,
                        expected: "an object with a string 'key'",
                        found: MappingDecoder.describe(entry)
                            + "; the variable is left out"))
                continue
            }
            if entry["disabled"]?.boolValue == true || entry["enabled"]?.boolValue == false { continue }
            switch entry["value"] {
            case .string(let text): values[key] = text
            case nil, .null: values[key] = ""
            case let value?: values[key] = value.serialized()
            }
        }
        return values
    }
}
