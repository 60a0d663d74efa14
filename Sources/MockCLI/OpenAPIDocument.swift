import APISchema
import ArgumentKit
import HTTPCore

/// The document `--openapi FILE` names, read the one way `serve`, `generate` and `variants`
/// read it: the contract, or nil with the error written to standard error.
enum OpenAPIDocument {
    static func read(_ file: String) -> Contract? {
        do {
            return try OpenAPIReader().read(file: file)
        } catch {
            // The error quotes the document (keys, values): escaped for a terminal.
            writeError("petmock: error: \(TerminalText.escapeEachLine("\(error)"))")
            return nil
        }
    }
}
