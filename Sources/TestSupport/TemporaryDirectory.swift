import Foundation

/// A fresh folder under the system temporary directory, removed by ``remove()``.
public struct TemporaryDirectory: Sendable {
    /// The folder's path.
    public let path: String

    /// Creates the folder; `prefix` names it for whoever finds it left behind.
    public init(prefix: String = "petkit") throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    /// A path inside the folder.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Deletes the folder and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
