import Platform
import StubFormat

extension Admin {
    /// At most this many names are listed (more is an error, never a list cut short).
    public static let bodyFileListLimit = 10_000
    /// Folders deeper than this under `__files/` are an error when listing.
    public static let bodyFileDepthLimit = 32
    /// A body file larger than this is not read through the admin API.
    public static let bodyFileReadLimit = 64 * 1024 * 1024

    /// The body files under `__files/` (WireMock's `GET /__admin/files`): their names relative
    /// to it, with `/` between folders, sorted; hidden names (`.x`) and links leading outside
    /// are left out. Empty when there is no `__files/` yet.
    public func bodyFileNames() throws(AdminError) -> [String] {
        let root = try filesRoot()
        guard let realRoot = FileSystem.resolve(root) else { return [] }
        var names: [String] = []
        var visited: Set<String> = [realRoot]
        try Self.list(root, prefix: "", realRoot: realRoot, depth: 0, visited: &visited, into: &names)
        return names.sorted()
    }

    private static func list(
        _ directory: String, prefix: String, realRoot: String, depth: Int, visited: inout Set<String>,
        into names: inout [String]
    ) throws(AdminError) {
        guard depth < bodyFileDepthLimit else {
            throw .bodyFilesTooLarge("__files/ has folders more than \(bodyFileDepthLimit) deep ('\(prefix)')")
        }
        let entries: [String]
        do {
            entries = try FileSystem.names(in: directory)
        } catch {
            throw .bodyFileFailed(action: "list", path: directory, reason: error.reason)
        }
        for entry in entries where !entry.hasPrefix(".") {
            let path = FileSystem.join(directory, entry)
            guard let real = FileSystem.resolve(path), FileSystem.isInside(real, realRoot) else { continue }
            switch FileSystem.kind(of: path) {
            case .file:
                guard names.count < bodyFileListLimit else {
                    throw .bodyFilesTooLarge("__files/ holds more than \(bodyFileListLimit) files")
                }
                names.append(prefix + entry)
            case .directory:
                guard visited.insert(real).inserted else { continue }
                try list(
                    path, prefix: prefix + entry + "/", realRoot: realRoot, depth: depth + 1, visited: &visited,
                    into: &names)
            default: continue
            }
        }
    }

    /// The bytes of a body file (`GET /__admin/files/{name}`), through `BodyFileResolver`'s
    /// rule: the file's real path must stay inside `__files/`.
    public func bodyFile(_ name: String) throws(AdminError) -> [UInt8] {
        let root = try filesRoot()
        let name = try Self.checked(name)
        let path = try resolved(name, root: root)
        do {
            return try FileSystem.read(path, atMost: Self.bodyFileReadLimit)
        } catch {
            if error.isTooLarge {
                throw .bodyFilesTooLarge("'\(name)' is larger than \(Self.bodyFileReadLimit) bytes")
            }
            throw .bodyFileFailed(action: "read", path: name, reason: error.reason)
        }
    }

    /// Removes a body file (`DELETE /__admin/files/{name}`); a link inside `__files/` is
    /// removed itself, never its target. The stubs are read again, as a `--watch` reload does.
    public func removeBodyFile(_ name: String) throws(AdminError) {
        guard let writer = store.writer else { throw .noFilesFolder }
        let name = try Self.checked(name)
        _ = try resolved(name, root: writer.folder.filesDirectory)
        do {
            try writer.removeBodyFile(name)
        } catch {
            throw Self.adminError(error)
        }
        bodyFilesChanged()
    }

    /// The `__files` folder of the stub folder.
    func filesRoot() throws(AdminError) -> String {
        guard let loader = engine.store.loader else { throw .noFilesFolder }
        return loader.filesDirectory
    }

    /// The real path of an existing body file inside `__files/`.
    private func resolved(_ name: String, root: String) throws(AdminError) -> String {
        switch BodyFileResolver(filesRoot: root).resolve(name) {
        case .success(let path): return path
        case .failure(.outsideRoot(let resolved)): throw .bodyFileOutsideFolder(name, resolved: resolved)
        case .failure(.notFound), .failure(.rootMissing): throw .bodyFileNotFound(name)
        }
    }

    /// The name without empty components; one that is empty, holds `.`, `..` or a NUL byte,
    /// or is longer than 1,024 bytes is refused.
    static func checked(_ name: String) throws(AdminError) -> String {
        let components = name.split(separator: "/")
        guard !components.isEmpty else { throw .invalidBodyFileName(name, reason: "expected a file name, found none") }
        guard name.utf8.count <= 1024 else {
            throw .invalidBodyFileName(
                String(name.prefix(64)) + "...", reason: "expected at most 1024 bytes, found \(name.utf8.count)")
        }
        guard !name.utf8.contains(0) else {
            throw .invalidBodyFileName(name, reason: "expected no NUL byte in the name")
        }
        if components.contains(where: { $0 == "." || $0 == ".." }) {
            throw .invalidBodyFileName(name, reason: "'.' and '..' are not allowed: the name stays inside __files/")
        }
        return components.joined(separator: "/")
    }

    /// Reads the mapping files again, keeping admin changes, after a body file changed (what
    /// a `--watch` reload does), so stubs serve the new bytes.
    func bodyFilesChanged() {
        let store = engine.store
        let events = store.mappingFiles().compactMap { store.reloadFile($0, keepingOverrides: true) }
        problemLog.record(events)
        for event in events { engine.publish(event) }
    }
}
