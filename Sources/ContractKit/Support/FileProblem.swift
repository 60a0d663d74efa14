import Foundation

/// Why a file could not be read, in words a user can act on.
enum FileProblem {
    /// `no such file`, `is a folder, not a file`, or `cannot be read (permission denied?)`.
    static func unreadable(_ path: String) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return "no such file" }
        if isDirectory.boolValue { return "is a folder, not a file" }
        return "cannot be read (permission denied?)"
    }

    /// Why `root` holds no stub folder: `no such folder`, `is a file, not a folder`, or no
    /// `mappings/` inside it.
    static func notAStubFolder(_ root: String) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) else {
            return "no such folder"
        }
        guard isDirectory.boolValue else { return "is a file, not a stub folder" }
        return "no 'mappings' folder in the stub folder"
    }
}
