import APISchema
import JSONKit
import Platform
import YAMLKit

extension OpenAPIReader {
    /// Reads a contract file.
    public func read(file: String) throws(ContractError) -> Contract {
        guard let bytes = try? FileSystem.read(file) else {
            throw .io(path: file, message: FileProblem.unreadable(file))
        }
        return try read(bytes, source: file)
    }

    /// Reads a contract from JSON or YAML bytes; `source` names it in errors. A `.yaml` or
    /// `.yml` file, or text that does not start with `{`, is read as YAML (the same document in
    /// either form reads to the same contract).
    public func read(_ bytes: [UInt8], source: String) throws(ContractError) -> Contract {
        try read(try Self.document(bytes, source: source), source: source)
    }

    /// The JSON value of a document's JSON or YAML bytes, as ``read(_:source:)`` decides which.
    public static func document(_ bytes: [UInt8], source: String) throws(ContractError) -> JSONValue {
        if isYAML(bytes, source: source) {
            do {
                return try YAMLReader().read(bytes)
            } catch {
                throw .notYAML(file: source, line: error.line, column: error.column, message: error.message)
            }
        }
        return try jsonDocument(bytes, source: source)
    }
}
