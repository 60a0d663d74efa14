import Platform

extension Admin {
    /// Writes a body file (`PUT /__admin/files/{name}`), atomically (a temporary file, then a
    /// rename), creating `__files/` and the folders of the name as needed. Every folder on the
    /// way that exists must really lie inside `__files/`, and an existing symbolic link or
    /// folder by that name is not replaced. The size is bounded by the server's body limit.
    /// The stubs are read again, as a `--watch` reload does, so they serve the new bytes.
    public func writeBodyFile(_ name: String, _ bytes: [UInt8]) throws(AdminError) {
        let root = try filesRoot()
        let name = try Self.checked(name)
        let path = FileSystem.join(root, name)
        do {
            try FileSystem.createDirectory(root)
        } catch {
            throw .bodyFileFailed(action: "create", path: "__files/", reason: error.reason)
        }
        guard let realRoot = FileSystem.resolve(root) else {
            throw .bodyFileFailed(action: "resolve", path: "__files/", reason: "it cannot be resolved")
        }
        var folder = root
        for component in name.split(separator: "/").dropLast() {
            folder = FileSystem.join(folder, String(component))
            let kind = FileSystem.kind(of: folder)
            if kind == nil {
                // Nothing there, or a link leading nowhere (which mkdir would follow).
                if ExistingStubFiles.occupant(of: folder) == .symbolicLink {
                    throw .bodyFileOutsideFolder(name, resolved: nil)
                }
                break  // This folder and those below are made new.
            }
            guard let real = FileSystem.resolve(folder), FileSystem.isInside(real, realRoot) else {
                throw .bodyFileOutsideFolder(name, resolved: FileSystem.resolve(folder))
            }
            guard kind == .directory else {
                throw .invalidBodyFileName(name, reason: "'\(component)' is a file, not a folder")
            }
        }
        switch ExistingStubFiles.occupant(of: path) {
        case .nothing, .file: break
        case .symbolicLink: throw .bodyFileOutsideFolder(name, resolved: FileSystem.resolve(path))
        case .other: throw .invalidBodyFileName(name, reason: "it is a folder, not a file")
        }
        do {
            try FileSystem.createDirectory(FileSystem.directory(of: path))
            try FileSystem.writeAtomically(bytes, to: path)
        } catch {
            throw .bodyFileFailed(action: "write", path: name, reason: error.reason)
        }
        bodyFilesChanged()
    }
}
