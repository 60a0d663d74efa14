import Foundation

/// A stub folder in the temporary directory, removed when the value is dropped by `remove()`.
struct TemporaryStubFolder {
    let root: String

    /// A folder with `mappings/` and `__files/`, holding `files` (paths relative to the root).
    init(_ files: [String: String] = [:]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("stubformat-\(UUID().uuidString)").path
        for folder in ["mappings", "__files"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        for (path, text) in files { try write(text, to: path) }
    }

    /// Writes a file, making its folders.
    func write(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: root + "/" + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// Makes `path` a symbolic link to `destination` (as written, relative to the link's folder).
    func link(_ path: String, to destination: String) throws {
        try FileManager.default.createSymbolicLink(atPath: root + "/" + path, withDestinationPath: destination)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }
}
