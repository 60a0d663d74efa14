import APISchema
import ArgumentKit
import HTTPCore
import Platform
import StubFormat

/// The document `--openapi FILE` names, read the one way `serve`, `generate` and `variants`
/// read it: the contract, or nil with the error written to standard error.
enum OpenAPIDocument {
    static func read(_ file: String) -> Contract? {
        if let bytes = try? FileSystem.read(file), PostmanCollection.isCollection(bytes) {
            writeError(
                "petmock: error: \(TerminalText.escape(file)) is a Postman collection, not an OpenAPI document; "
                    + "pass --postman \(TerminalText.escape(file))")
            return nil
        }
        do {
            return try OpenAPIReader().read(file: file)
        } catch {
            // The error quotes the document (keys, values): escaped for a terminal.
            writeError("petmock: error: \(TerminalText.escapeEachLine("\(error)"))")
            return nil
        }
    }
}
