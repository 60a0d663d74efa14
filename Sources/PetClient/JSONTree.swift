/// A parsed JSON document, as much of one as diagnostics need: find the value at a coding
/// path, name its type, and show it back as compact JSON, keys in their original order.
///
/// PetClient parses JSON here only when something went wrong; decoding itself is
/// `JSONDecoder`'s. Having its own small parser keeps it off Foundation's `JSONSerialization`
/// (and off the ~7 MB that the full Foundation costs a client process).
package indirect enum JSONTree: Equatable {
    case null
    case bool(Bool)
    /// A number, kept as written.
    case number(String)
    case string(String)
    case array([JSONTree])
    case object([Member])

    package struct Member: Equatable {
        package let key: String
        package let value: JSONTree
    }

    /// The value at a coding path (array indexes and object keys), or nil when there is none.
    package func value(at path: [any CodingKey]) -> JSONTree? {
        var current = self
        for key in path {
            switch current {
            case .array(let items):
                guard let index = key.intValue, items.indices.contains(index) else { return nil }
                current = items[index]
            case .object(let members):
                guard let member = members.last(where: { $0.key == key.stringValue }) else { return nil }
                current = member.value
            default:
                return nil
            }
        }
        return current
    }

    /// The JSON type's name: `null`, `boolean`, `number`, `string`, `array` or `object`.
    package var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The value as compact JSON text.
    package var compactText: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .number(let text): text
        case .string(let text): jsonString(text)
        case .array(let items): "[" + items.map(\.compactText).joined(separator: ",") + "]"
        case .object(let members):
            "{" + members.map { jsonString($0.key) + ":" + $0.value.compactText }.joined(separator: ",") + "}"
        }
    }

    /// Parses a whole document (RFC 8259), or says what is wrong and where.
    package static func parse(_ bytes: [UInt8]) -> Result<JSONTree, JSONSyntaxError> {
        var parser = JSONTreeParser(bytes: bytes)
        do {
            let value = try parser.parseDocument()
            return .success(value)
        } catch {
            return .failure(error)
        }
    }
}

/// Where and why bytes are not JSON.
package struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
    /// What was wrong, such as `unexpected end of input`.
    package let problem: String
    /// The line, from 1.
    package let line: Int
    /// The column, from 1, in bytes.
    package let column: Int

    package var description: String { "\(problem) at line \(line), column \(column)" }
}
