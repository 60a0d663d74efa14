import Platform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a WireMock stub folder, as ``StubFolder`` reads it: mapping files in `mappings/`
/// (``StubMapping/fileBytes(_:)``) and body files in `__files/`. Every file is written
/// atomically (a temporary file, then a rename), never through a symbolic link and never
/// outside the folder; when a write fails, the file is as it was. petmock's admin API, its
/// store's persistent mappings and recording all write through it.
///
/// ```swift
/// let writer = StubFolderWriter(folder: StubFolder(root: "Stubs"))
/// let path = writer.ownFile(of: mapping)              // Stubs/mappings/get-pets-<id>.json
/// try writer.writeMappings([mapping], to: path)
/// try writer.writeBodyFile("pets.json", Array(#"[]"#.utf8))
/// ```
package struct StubFolderWriter: Sendable {
    /// The folder written.
    package let folder: StubFolder
    /// What writes and removes files.
    package let operations: StubFileOperations

    package init(folder: StubFolder, operations: StubFileOperations = .disk) {
        self.folder = folder
        self.operations = operations
    }

    // MARK: A whole stub set

    /// Writes a stub set into the folder, making the folder when missing: each body file, then
    /// each mapping in a file of its own (``ownFile(of:)``), replacing files of the same names
    /// and leaving others alone. `petmock generate` writes every folder it makes through this.
    package func write(
        mappings: [StubMapping], bodyFiles: [(name: String, bytes: [UInt8])] = []
    )
        throws(StubWriteError)
    {
        do {
            try FileSystem.createDirectory(folder.root)
        } catch {
            throw .notChanged(action: "create", path: folder.root, reason: error.reason)
        }
        for file in bodyFiles { try writeBodyFile(file.name, file.bytes) }
        for mapping in mappings { try writeMappings([mapping], to: ownFile(of: mapping)) }
    }

    // MARK: Mapping files

    /// The file of its own a mapping is saved to: `mappings/NAME-ID.json`.
    package func ownFile(of mapping: StubMapping) -> String {
        FileSystem.join(folder.mappingsDirectory, Self.fileName(for: mapping))
    }

    /// Writes a mapping file holding these mappings, making its folder when missing; refused
    /// when ``refusalToChange(_:)`` gives a reason.
    package func writeMappings(_ mappings: [StubMapping], to path: String) throws(StubWriteError) {
        let bytes = StubMapping.fileBytes(mappings)
        do {
            try FileSystem.createDirectory(FileSystem.directory(of: path))
        } catch {
            throw .notChanged(action: "create", path: path, reason: error.reason)
        }
        if let refusal = refusalToChange(path) { throw .notChanged(action: "write", path: path, reason: refusal) }
        do {
            try operations.write(bytes, path)
        } catch {
            throw .notChanged(action: "write", path: path, reason: error.reason)
        }
    }

    /// Removes a mapping file; refused when ``refusalToChange(_:)`` gives a reason.
    package func removeMappingFile(_ path: String) throws(StubWriteError) {
        if let refusal = refusalToChange(path) { throw .notChanged(action: "remove", path: path, reason: refusal) }
        do {
            try operations.remove(path)
        } catch {
            throw .notChanged(action: "remove", path: path, reason: error.reason)
        }
    }

    /// Why a mapping file may not be written or removed, or nil when it may. The folder it is
    /// in must lead inside the stub folder (a symbolic link out is not followed), and the path
    /// must hold a regular file or nothing: replacing a symbolic link would leave its target,
    /// which may be loaded too, as it was.
    package func refusalToChange(_ path: String) -> String? {
        guard let realRoot = FileSystem.resolve(folder.root) else { return "the stub folder cannot be resolved" }
        let directory = FileSystem.directory(of: path)
        guard let realFolder = FileSystem.resolve(directory), FileSystem.isInside(realFolder, realRoot) else {
            return "its folder leads outside the stub folder (to '\(FileSystem.resolve(directory) ?? "nowhere")')"
        }
        switch Self.occupant(of: path) {
        case .nothing, .file: return nil
        case .symbolicLink: return "it is a symbolic link, not replaced"
        case .other: return "it is not a regular file"
        }
    }

    /// Whether a mapping file holds one mapping as itself (not `{"mappings": [...]}`), as
    /// ``StubFolder`` reads it, so a change to that mapping may rewrite or remove the whole
    /// file. WireMock treats multi-mapping files as read-only, and rewriting one would lose
    /// the mappings in it that did not load. False when the file does not read as a mapping.
    package func holdsOneMapping(_ path: String) -> Bool {
        let contents = folder.readFile(path)
        return (contents.mappings + contents.rejected).contains { $0.path == .root }
    }

    /// `NAME-ID.json` with the name reduced to letters, digits and dashes (WireMock's habit).
    /// An id that is longer than ``fileNameIDLimit`` or holds other characters is cut to its
    /// first characters that may stay plus a stable hash of the whole id, so the name stays
    /// well under the 255 bytes a file name may have and ids differing only in dropped
    /// characters do not share a file.
    package static func fileName(for mapping: StubMapping) -> String {
        var slug = ""
        for character in (mapping.name ?? "mapping").lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                slug.append(character)
            } else if !slug.hasSuffix("-") {
                slug.append("-")
            }
        }
        var trimmed = slug[...]
        while trimmed.first == "-" { trimmed = trimmed.dropFirst() }
        while trimmed.last == "-" { trimmed = trimmed.dropLast() }
        slug = String(trimmed.prefix(60))
        var id = mapping.id.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        if id != mapping.id || id.utf8.count > Self.fileNameIDLimit {
            id = String(id.prefix(Self.fileNameIDLimit - 17)) + "-" + Identifiers.stableHash(mapping.id)
        }
        return (slug.isEmpty ? "mapping" : slug) + "-" + id + ".json"
    }

    /// The longest id part of a saved mapping's file name, in bytes (a UUID is 36).
    package static let fileNameIDLimit = 80

    // MARK: Body files

    /// Writes the body file `name` (a checked name relative to `__files/`), creating
    /// `__files/` and the folders of the name as needed. Every folder on the way that exists
    /// must really lie inside `__files/`, and an existing symbolic link or folder by that name
    /// is not replaced.
    package func writeBodyFile(_ name: String, _ bytes: [UInt8]) throws(StubWriteError) {
        let root = folder.filesDirectory
        let path = FileSystem.join(root, name)
        do {
            try FileSystem.createDirectory(root)
        } catch {
            throw .notChanged(action: "create", path: "__files/", reason: error.reason)
        }
        guard let realRoot = FileSystem.resolve(root) else {
            throw .notChanged(action: "resolve", path: "__files/", reason: "it cannot be resolved")
        }
        var directory = root
        for component in name.split(separator: "/").dropLast() {
            directory = FileSystem.join(directory, String(component))
            let kind = FileSystem.kind(of: directory)
            if kind == nil {
                // Nothing there, or a link leading nowhere (which mkdir would follow).
                if Self.occupant(of: directory) == .symbolicLink { throw .outsideFolder(name: name, resolved: nil) }
                break  // This folder and those below are made new.
            }
            guard let real = FileSystem.resolve(directory), FileSystem.isInside(real, realRoot) else {
                throw .outsideFolder(name: name, resolved: FileSystem.resolve(directory))
            }
            guard kind == .directory else { throw .invalidName(name, reason: "'\(component)' is a file, not a folder") }
        }
        switch Self.occupant(of: path) {
        case .nothing, .file: break
        case .symbolicLink: throw .outsideFolder(name: name, resolved: FileSystem.resolve(path))
        case .other: throw .invalidName(name, reason: "it is a folder, not a file")
        }
        do {
            try FileSystem.createDirectory(FileSystem.directory(of: path))
            try operations.write(bytes, path)
        } catch {
            throw .notChanged(action: "write", path: name, reason: error.reason)
        }
    }

    /// Removes the body file `name` (a checked name relative to `__files/`); a link inside
    /// `__files/` is removed itself, never its target.
    package func removeBodyFile(_ name: String) throws(StubWriteError) {
        do {
            try operations.remove(FileSystem.join(folder.filesDirectory, name))
        } catch {
            throw .notChanged(action: "remove", path: name, reason: error.reason)
        }
    }

    // MARK: What is at a path

    /// What is at a path, without following a symbolic link there.
    package enum Occupant: Equatable, Sendable {
        case nothing, symbolicLink, file, other
    }

    /// What is at a path (`lstat`): a link is reported as a link, not as what it leads to.
    package static func occupant(of path: String) -> Occupant {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .nothing }
        switch info.st_mode & S_IFMT {
        case S_IFLNK: return .symbolicLink
        case S_IFREG: return .file
        default: return .other
        }
    }
}
