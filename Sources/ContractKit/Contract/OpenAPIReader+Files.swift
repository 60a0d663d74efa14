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
        do {
            return try JSONValue(parsing: bytes)
        } catch {
            throw .notJSON(file: source, error: error)
        }
    }

    /// Whether to read the bytes as YAML: by the file's extension, else by the first character.
    static func isYAML(_ bytes: [UInt8], source: String) -> Bool {
        let lowered = source.lowercased()
        if lowered.hasSuffix(".yaml") || lowered.hasSuffix(".yml") { return true }
        if lowered.hasSuffix(".json") { return false }
        var rest = bytes[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        let first = rest.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return first != UInt8(ascii: "{")
    }
}
