import Foundation

/// A fresh folder under the system temporary directory, removed by ``remove()``: the one way a
/// test makes a temporary folder (stub folders, contracts, databases, recordings).
///
/// ```swift
/// let folder = try TemporaryDirectory(prefix: "stubs", files: ["mappings/pets.json": json])
/// defer { folder.remove() }
/// let report = try StubLoader(root: folder.path).load()
/// ```
package struct TemporaryDirectory: Sendable {
    /// The folder's path.
    package let path: String

    /// Creates the folder, holding `files` (paths relative to it, their folders made); `prefix`
    /// names it for whoever finds it left behind.
    package init(prefix: String = "petkit", files: [String: String] = [:]) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
        for (name, text) in files { try write(text, to: name) }
    }

    /// A path inside the folder.
    package func file(_ name: String) -> String { path + "/" + name }

    /// Writes a file inside the folder (`name` relative to it), making its folders.
    package func write(_ text: String, to name: String) throws {
        try write(Array(text.utf8), to: name)
    }

    /// Writes bytes to a file inside the folder (`name` relative to it), making its folders.
    package func write(_ bytes: [UInt8], to name: String) throws {
        let url = URL(fileURLWithPath: file(name))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    /// Makes the folder `name` inside the folder, and its parents.
    package func makeFolder(_ name: String) throws {
        try FileManager.default.createDirectory(atPath: file(name), withIntermediateDirectories: true)
    }

    /// Deletes the folder and everything in it.
    package func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
