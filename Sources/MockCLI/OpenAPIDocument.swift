import APISchema
import ArgumentKit

/// The document `--openapi FILE` names, read the one way `serve`, `generate` and `variants`
/// read it: the contract, or nil with the error written to standard error.
enum OpenAPIDocument {
    static func read(_ file: String) -> Contract? {
        do {
            return try OpenAPIReader().read(file: file)
        } catch {
            writeError("petmock: error: \(error)")
            return nil
        }
    }
}
