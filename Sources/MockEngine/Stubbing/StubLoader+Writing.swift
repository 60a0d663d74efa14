import JSONKit
import Platform

extension StubLoader {
    /// Why the server may not write or remove this mapping file, or nil when it may. The
    /// folder it is in must lead inside the stub folder (a symbolic link out is not followed),
    /// and the path must hold a regular file or nothing: replacing a symbolic link would
    /// leave its target, which may be loaded too, as it was.
    func refusalToChange(_ path: String) -> String? {
        guard let realRoot = FileSystem.resolve(root) else { return "the stub folder cannot be resolved" }
        let folder = FileSystem.directory(of: path)
        guard let realFolder = FileSystem.resolve(folder), FileSystem.isInside(realFolder, realRoot) else {
            return "its folder leads outside the stub folder (to '\(FileSystem.resolve(folder) ?? "nowhere")')"
        }
        switch ExistingStubFiles.occupant(of: path) {
        case .nothing, .file: return nil
        case .symbolicLink: return "it is a symbolic link, not replaced"
        case .other: return "it is not a regular file"
        }
    }

    /// Whether a mapping file holds one mapping as itself (not `{"mappings": [...]}`), so an
    /// admin change to its persistent mapping may rewrite or remove the whole file. WireMock
    /// treats multi-mapping files as read-only, and rewriting one would lose the mappings in
    /// it that did not load. False when the file cannot be read as JSON.
    func holdsOneMapping(_ path: String) -> Bool {
        guard let bytes = try? FileSystem.read(path), case .object(let object)? = try? JSONValue(parsing: bytes) else {
            return false
        }
        return !object.contains(key: "mappings") || object.contains(key: "request")
    }
}
