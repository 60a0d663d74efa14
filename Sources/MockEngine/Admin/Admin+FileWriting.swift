import StubFormat

extension Admin {
    /// Writes a body file (`PUT /__admin/files/{name}`), atomically (a temporary file, then a
    /// rename), creating `__files/` and the folders of the name as needed. Every folder on the
    /// way that exists must really lie inside `__files/`, and an existing symbolic link or
    /// folder by that name is not replaced. The size is bounded by the server's body limit.
    /// The stubs are read again, as a `--watch` reload does, so they serve the new bytes.
    public func writeBodyFile(_ name: String, _ bytes: [UInt8]) throws(AdminError) {
        guard let writer = store.writer else { throw .noFilesFolder }
        let name = try Self.checked(name)
        do {
            try writer.writeBodyFile(name, bytes)
        } catch {
            throw Self.adminError(error)
        }
        bodyFilesChanged()
    }

    /// The admin error of a body file the writer left as it was.
    package static func adminError(_ error: StubWriteError) -> AdminError {
        switch error {
        case .notChanged(let action, let path, let reason): .bodyFileFailed(action: action, path: path, reason: reason)
        case .outsideFolder(let name, let resolved): .bodyFileOutsideFolder(name, resolved: resolved)
        case .invalidName(let name, let reason): .invalidBodyFileName(name, reason: reason)
        }
    }
}
