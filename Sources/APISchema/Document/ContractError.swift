import JSONKit

/// Why a contract could not be built, read or used: the run cannot go on (exit 2).
public enum ContractError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A `Decodable` type could not be reflected into a schema.
    case cannotReflect(type: String, path: String, reason: String)
    /// An endpoint's declaration contradicts itself (a path placeholder without a parameter, say).
    case invalidEndpoint(endpoint: String, reason: String)
    /// There is no contract to use.
    case noContract(reason: String)
    /// A model lists a required key its `init(from:)` never reads.
    case requiredKeyNotDecoded(type: String, key: String)
    /// The contract file is not JSON.
    case notJSON(file: String, error: JSONParseError)
    /// The contract file is not YAML (or not YAML that JSON can hold).
    case notYAML(file: String, line: Int, column: Int, message: String)
    /// The contract is JSON but not a contract this reader understands.
    case invalidContract(file: String, path: String, expected: String, found: String)
    /// A `$ref` that points at nothing.
    case unresolvedReference(file: String, path: String, reference: String)
    /// A file could not be read or written.
    case io(path: String, message: String)
    /// An ignore file line that cannot be understood.
    case invalidIgnoreFile(file: String, line: Int, message: String)

    public var description: String {
        switch self {
        case .cannotReflect(let type, let path, let reason):
            "cannot derive a schema from '\(type)' at \(path): \(reason)"
        case .invalidEndpoint(let endpoint, let reason): "endpoint '\(endpoint)': \(reason)"
        case .noContract(let reason): reason
        case .requiredKeyNotDecoded(let type, let key):
            "'\(type).requiredKeys' lists '\(key)', which its init(from:) never decodes"
        case .notJSON(let file, let error): "\(file): not JSON: \(error)"
        case .notYAML(let file, let line, let column, let message):
            "\(file): not YAML: line \(line), column \(column): \(message)"
        case .invalidContract(let file, let path, let expected, let found):
            "\(file): \(path): expected \(expected), found \(found)"
        case .unresolvedReference(let file, let path, let reference):
            "\(file): \(path): '$ref' '\(reference)' points at no schema"
        case .io(let path, let message): "\(path): \(message)"
        case .invalidIgnoreFile(let file, let line, let message): "\(file):\(line): \(message)"
        }
    }
}
