/// A failure reported by SQLite, with its result code and message.
package struct SQLiteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// SQLite's (extended) result code.
    package let code: Int32
    /// SQLite's message, prefixed with what was being done.
    package let message: String

    /// Creates an error.
    package init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { "SQLite error \(code): \(message)" }
}
