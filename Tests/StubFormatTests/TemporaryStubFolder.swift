import Foundation
import TestSupport

/// A stub folder (`mappings/` and `__files/`) in a ``TemporaryDirectory``, removed by `remove()`.
struct TemporaryStubFolder {
    let directory: TemporaryDirectory
    var root: String { directory.path }

    /// A folder with `mappings/` and `__files/`, holding `files` (paths relative to the root).
    init(_ files: [String: String] = [:]) throws {
        directory = try TemporaryDirectory(prefix: "stubformat", files: files)
        for folder in ["mappings", "__files"] { try directory.makeFolder(folder) }
    }

    /// Writes a file, making its folders.
    func write(_ text: String, to path: String) throws {
        try directory.write(text, to: path)
    }

    /// Makes `path` a symbolic link to `destination` (as written, relative to the link's folder).
    func link(_ path: String, to destination: String) throws {
        try FileManager.default.createSymbolicLink(atPath: directory.file(path), withDestinationPath: destination)
    }

    func remove() {
        directory.remove()
    }
}
