/// Why a file could not be read, in words a user can act on.
package enum FileProblem {
    /// `no such file`, `is a folder, not a file`, or `cannot be read (permission denied?)`.
    package static func unreadable(_ path: String) -> String {
        switch FileSystem.kind(of: path) {
        case nil: "no such file"
        case .directory?: "is a folder, not a file"
        case .file?, .other?: "cannot be read (permission denied?)"
        }
    }

    /// Why `root` holds no stub folder: `no such folder`, `is a file, not a folder`, or no
    /// `mappings/` inside it.
    package static func notAStubFolder(_ root: String) -> String {
        switch FileSystem.kind(of: root) {
        case nil: "no such folder"
        case .directory?: "no 'mappings' folder in the stub folder"
        case .file?, .other?: "is a file, not a stub folder"
        }
    }
}
