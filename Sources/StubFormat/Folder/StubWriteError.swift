/// Why ``StubFolderWriter`` left a file as it was.
package enum StubWriteError: Error, Sendable, Equatable {
    /// `action` (`create`, `write`, `remove`, ...) on `path` failed, or the path may not be
    /// changed, for `reason`; nothing changed.
    case notChanged(action: String, path: String, reason: String)
    /// A body file name leads outside `__files/` (through a symbolic link resolving to
    /// `resolved`, when it resolves).
    case outsideFolder(name: String, resolved: String?)
    /// A body file name that cannot be written (a folder by that name, or a file where a
    /// folder of the name should be).
    case invalidName(String, reason: String)

    /// The path and the reason, for callers that report every failure alike.
    package var pathAndReason: (path: String, reason: String) {
        switch self {
        case .notChanged(_, let path, let reason): (path, reason)
        case .outsideFolder(let name, let resolved):
            (name, "it leads outside __files/ (to '\(resolved ?? "nowhere")')")
        case .invalidName(let name, let reason): (name, reason)
        }
    }
}
