/// Why a fallback source's state was not reset: the file it is kept in (`--state-file`)
/// refused the change, so nothing of the state was reset.
public struct StateResetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file that refused.
    public var file: String
    /// Why, as SQLite said it.
    public var reason: String

    /// Creates the error of a file that refused a reset.
    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    public var description: String {
        "The stateful store was not reset: the state file '\(file)' could not be written: \(reason)"
    }
}
