import Platform

/// What ``StubFolderWriter`` does to the disk, as two functions: write a file atomically and
/// remove one. Everything else the writer does (checks, folders) reads the disk directly;
/// this is the seam a test replaces to watch a write happen.
package struct StubFileOperations: Sendable {
    /// Writes the bytes to the path so that readers see the old content or the new, never a part.
    package var write: @Sendable (_ bytes: [UInt8], _ path: String) throws(FileSystemError) -> Void
    /// Removes the file; a missing file is not an error.
    package var remove: @Sendable (_ path: String) throws(FileSystemError) -> Void

    package init(
        write: @escaping @Sendable (_ bytes: [UInt8], _ path: String) throws(FileSystemError) -> Void,
        remove: @escaping @Sendable (_ path: String) throws(FileSystemError) -> Void
    ) {
        self.write = write
        self.remove = remove
    }

    /// The real disk: a temporary file renamed over the path, and `unlink`.
    package static let disk = StubFileOperations(
        write: { (bytes, path) throws(FileSystemError) in try FileSystem.writeAtomically(bytes, to: path) },
        remove: { (path) throws(FileSystemError) in try FileSystem.remove(path) })
}
