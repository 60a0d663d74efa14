import HTTPCore
import JSONKit

/// Why a Postman collection or environment file cannot be read at all; what is wrong inside a
/// collection that can be read is a ``StubProblem`` of its ``PostmanStubSet`` instead.
public enum PostmanCollectionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file cannot be read.
    case unreadable(source: String, reason: String)
    /// The file is not JSON.
    case invalidJSON(source: String, message: String)
    /// The JSON is not a Postman collection v2.0 or v2.1: what is missing or wrong, where.
    case notACollection(source: String, path: String, reason: String)
    /// A Postman collection v1 (`requests` and `order` at the top, no `info`).
    case version1(source: String)
    /// The JSON is not a Postman environment export (`values: [{key, value, enabled}]`).
    case notAnEnvironment(source: String, path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let source, let reason):
            "\(TerminalText.escape(source)): \(TerminalText.escape(reason))"
        case .invalidJSON(let source, let message):
            "\(TerminalText.escape(source)): not JSON: \(TerminalText.escape(message))"
        case .notACollection(let source, let path, let reason):
            "\(TerminalText.escape(source)): \(path): not a Postman collection: \(TerminalText.escape(reason))"
        case .version1(let source):
            "\(TerminalText.escape(source)): Postman collection v1 is not supported; export as v2.1"
        case .notAnEnvironment(let source, let path, let reason):
            "\(TerminalText.escape(source)): \(path): not a Postman environment: \(TerminalText.escape(reason))"
        }
    }
}

extension PostmanCollectionError {
    /// The JSON value of a collection's or an environment's bytes, or `.invalidJSON` naming
    /// the file.
    static func parsed(_ bytes: [UInt8], source: String) throws(PostmanCollectionError) -> JSONValue {
        do {
            return try JSONValue(parsing: bytes)
        } catch {
            throw .invalidJSON(source: source, message: "\(error)")
        }
    }
}

extension PostmanCollectionError {
    /// The error as a problem of its file (an error at its JSON path, `$` for the whole file),
    /// as a hot reload reports it.
    public var problem: StubProblem {
        switch self {
        case .unreadable(let source, let reason):
            StubProblem(.error, .unreadableFile, file: source, path: "", detail: reason)
        case .invalidJSON(let source, let message):
            StubProblem(.error, .invalidJSON, file: source, path: "$", detail: "not JSON: \(message)")
        case .notACollection(let source, let path, let reason):
            StubProblem(.error, .invalidValue, file: source, path: path, detail: "not a Postman collection: \(reason)")
        case .version1(let source):
            StubProblem(
                .error, .invalidValue, file: source, path: "$",
                detail: "Postman collection v1 is not supported; export as v2.1")
        case .notAnEnvironment(let source, let path, let reason):
            StubProblem(.error, .invalidValue, file: source, path: path, detail: "not a Postman environment: \(reason)")
        }
    }
}
