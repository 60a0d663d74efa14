#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a file operation failed: the path, the call and the system's reason.
package struct FileSystemError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path the operation was on.
    package let path: String
    /// The failing call, for example `open`.
    package let call: String
    /// The `errno` value.
    package let code: Int32

    package init(path: String, call: String, code: Int32) {
        self.path = path
        self.call = call
        self.code = code
    }

    /// The system's message for the error, for example `No such file or directory`.
    package var reason: String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }

    package var description: String { "\(path): \(reason)" }

    /// Whether the path does not exist.
    package var isNotFound: Bool { code == ENOENT }

    /// Whether the file was longer than the reader allowed (``FileSystem/read(_:atMost:)``).
    package var isTooLarge: Bool { code == EFBIG }
}

/// What identifies one version of a file or folder: its identity, size and times. Two stamps
/// of a path differ when the file was replaced, written or touched in between.
package struct FileStamp: Equatable, Sendable {
    package var device: UInt64
    package var inode: UInt64
    package var size: Int64
    /// Nanoseconds since the epoch.
    package var modified: Int64
    /// Nanoseconds since the epoch (the status change time).
    package var changed: Int64
    package var isDirectory: Bool
    /// Whether the path names a regular file (no folder, device, pipe or socket).
    package var isRegularFile: Bool
}

/// The few file-system calls petkit needs, on POSIX directly (no Foundation).
package enum FileSystem {
    /// What a path names.
    package enum Kind: Sendable, Equatable {
        case file, directory, other
    }

    /// The kind of the path (following symbolic links), or nil when it does not exist.
    package static func kind(of path: String) -> Kind? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// The stamp of the path (following symbolic links), or nil when it does not exist.
    package static func stamp(of path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        let changed = Int64(info.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(info.st_ctimespec.tv_nsec)
        #else
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        let changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        #endif
        return FileStamp(
            device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino),
            size: Int64(info.st_size), modified: modified, changed: changed,
            isDirectory: info.st_mode & S_IFMT == S_IFDIR, isRegularFile: info.st_mode & S_IFMT == S_IFREG)
    }

    /// The whole content of a file; a file longer than `limit` bytes is refused (`EFBIG`)
    /// before more than `limit` bytes are read.
    package static func read(_ path: String, atMost limit: Int = .max) throws(FileSystemError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileSystemError(path: path, call: "open", code: errno) }
        defer { close(descriptor) }
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            throw FileSystemError(path: path, call: "read", code: EISDIR)
        }
        if Int(info.st_size) > limit { throw FileSystemError(path: path, call: "read", code: EFBIG) }
        var result: [UInt8] = []
        result.reserveCapacity(max(0, Int(info.st_size)))
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(path: path, call: "read", code: errno)
            }
            if count == 0 { break }
            // The file may have grown since fstat.
            if result.count + count > limit { throw FileSystemError(path: path, call: "read", code: EFBIG) }
            result.append(contentsOf: chunk[0..<count])
        }
        return result
    }

    /// The names in a directory (without `.` and `..`), sorted by their bytes.
    package static func names(in directory: String) throws(FileSystemError) -> [String] {
        guard let handle = opendir(directory) else {
            throw FileSystemError(path: directory, call: "opendir", code: errno)
        }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
                    String(cString: $0)
                }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    /// Every regular file under `directory`, recursively, as paths starting with `directory`,
    /// sorted; names starting with `.` are skipped. A subdirectory that cannot be read is
    /// reported through `onError` and skipped. Symbolic links are followed only while they lead
    /// inside `root` (a real path, see ``resolve(_:)``): one that leads out is passed to
    /// `onOutside` with its target and skipped. A folder already listed (a link loop, or two
    /// links to one folder) is not listed again.
    package static func files(
        under directory: String, confinedTo root: String, onError: (FileSystemError) -> Void = { _ in },
        onOutside: (_ path: String, _ target: String) -> Void = { _, _ in }
    ) throws(FileSystemError) -> [String] {
        var visited: Set<String> = []
        if let real = resolve(directory) { visited.insert(real) }
        return try files(under: directory, root: root, visited: &visited, onError: onError, onOutside: onOutside)
    }

    private static func files(
        under directory: String, root: String, visited: inout Set<String>, onError: (FileSystemError) -> Void,
        onOutside: (String, String) -> Void
    ) throws(FileSystemError) -> [String] {
        var result: [String] = []
        for name in try names(in: directory) where !name.hasPrefix(".") {
            let path = join(directory, name)
            guard let real = resolve(path) else { continue }  // a dangling link
            guard isInside(real, root) else {
                onOutside(path, real)
                continue
            }
            switch kind(of: path) {
            case .file: result.append(path)
            case .directory:
                guard visited.insert(real).inserted else { continue }
                do {
                    result += try files(
                        under: path, root: root, visited: &visited, onError: onError, onOutside: onOutside)
                } catch {
                    onError(error)
                }
            default: continue
            }
        }
        return result
    }

    /// Whether the real path `path` is `root` or lies under it (both with links resolved).
    package static func isInside(_ path: String, _ root: String) -> Bool {
        path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// The canonical absolute path with symbolic links resolved, or nil when it does not exist.
    package static func resolve(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `directory/name`, without doubling a slash.
    package static func join(_ directory: String, _ name: String) -> String {
        if directory.isEmpty { return name }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// The directory part of a path (`.` when there is none).
    package static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The last component of a path.
    package static func lastComponent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// Creates a directory and its missing parents.
    package static func createDirectory(_ path: String) throws(FileSystemError) {
        if kind(of: path) == .directory { return }
        let parent = directory(of: path)
        if parent != path && parent != "." && parent != "/" { try createDirectory(parent) }
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
            throw FileSystemError(path: path, call: "mkdir", code: errno)
        }
    }

    /// Writes a file so that readers see the old content or the new, never a part: the bytes
    /// go to a hidden temporary file in the same directory, which is then renamed over `path`.
    /// `permissions` are the file's mode (0600 for a private key: the temporary file is made
    /// 0600 and keeps it until then).
    package static func writeAtomically(
        _ bytes: [UInt8], to path: String, permissions: mode_t = 0o644
    ) throws(FileSystemError) {
        let directory = directory(of: path)
        var template = Array(join(directory, ".\(lastComponent(of: path)).XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard descriptor >= 0 else { throw FileSystemError(path: path, call: "mkstemp", code: errno) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure: FileSystemError?
        var offset = 0
        while offset < bytes.count && failure == nil {
            let written = bytes[offset...].withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno != EINTR { failure = FileSystemError(path: temporary, call: "write", code: errno) }
            } else {
                offset += written
            }
        }
        if failure == nil {
            fchmod(descriptor, permissions)
            if fsync(descriptor) != 0 { failure = FileSystemError(path: temporary, call: "fsync", code: errno) }
        }
        close(descriptor)
        if failure == nil && rename(temporary, path) != 0 {
            failure = FileSystemError(path: path, call: "rename", code: errno)
        }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }

    /// Removes a folder if it is empty; says whether it did.
    @discardableResult
    package static func removeEmptyDirectory(_ path: String) -> Bool {
        rmdir(path) == 0
    }

    /// Removes a file; a missing file is not an error.
    package static func remove(_ path: String) throws(FileSystemError) {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw FileSystemError(path: path, call: "unlink", code: errno)
        }
    }
}

private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
