import Platform
import StubFormat

/// Writes recorded mappings into a stub folder without losing anything: every file through
/// the stub format's writer (``StubFolderWriter``: atomically, never through a link, never
/// outside the folder), and never over a file it did not write (a hand-written mapping,
/// another request's recording).
///
/// A file is the writer's to replace when it holds an earlier recording of the same request
/// (same first id, every mapping marked as recorded): re-recording refreshes it in place.
struct RecordedStubWriter: Sendable {
    let root: String
    /// What writes the files.
    private let writer: StubFolderWriter
    let mappingsDirectory: String
    let filesDirectory: String
    private var existing: ExistingStubFiles
    private var claimedFiles: Set<String> = []
    private var claimedBodies: Set<String> = []
    /// The folders made (or found) and checked at a first write.
    private var prepared: Set<String> = []
    /// The body files written, in order.
    private(set) var bodyFilesWritten: [String] = []

    /// Checks `root/mappings` and `root/__files`, refusing either when it leads outside the
    /// root, and notes what the folder already holds. Nothing is created here: the folders
    /// are made at the first write, so a recording that never starts (a busy port) or
    /// records nothing leaves nothing behind.
    init(root: String) throws(RecordingError) {
        self.root = root
        // The layout the stub format reads (StubFolder), so what is written is what loads.
        writer = StubFolderWriter(folder: StubFolder(root: root))
        mappingsDirectory = writer.folder.mappingsDirectory
        filesDirectory = writer.folder.filesDirectory
        if let kind = FileSystem.kind(of: root) {
            guard kind == .directory else { throw .unsafeStubFolder(path: root, reason: "it is not a folder") }
            for directory in [mappingsDirectory, filesDirectory]
            where ExistingStubFiles.occupant(of: directory) != .nothing {
                if let reason = Self.refusal(of: directory, root: root) {
                    throw .unsafeStubFolder(path: directory, reason: reason)
                }
            }
        }
        existing = ExistingStubFiles(root: root)
    }

    /// Why a folder under the root cannot be written to (it leads outside the root, or is
    /// no folder), or nil when it can.
    private static func refusal(of directory: String, root: String) -> String? {
        guard let realRoot = FileSystem.resolve(root) else { return "the stub folder cannot be resolved" }
        let inside = realRoot.hasSuffix("/") ? realRoot : realRoot + "/"
        guard let real = FileSystem.resolve(directory), real.hasPrefix(inside) else {
            return "it leads outside the stub folder (to '\(FileSystem.resolve(directory) ?? "nowhere")')"
        }
        guard FileSystem.kind(of: directory) == .directory else { return "it is not a folder" }
        return nil
    }

    /// Makes `mappings/` or `__files/` (and the root) on first use, checked as ``init(root:)``
    /// checks them.
    private mutating func prepare(_ directory: String) -> RecordingWriteFailure? {
        if prepared.contains(directory) { return nil }
        if ExistingStubFiles.occupant(of: directory) == .nothing {
            do {
                try FileSystem.createDirectory(directory)
            } catch {
                return RecordingWriteFailure(path: directory, reason: error.reason)
            }
        }
        if let reason = Self.refusal(of: directory, root: root) {
            return RecordingWriteFailure(path: directory, reason: reason)
        }
        prepared.insert(directory)
        return nil
    }

    /// Writes an entry's mappings (and bodies) to its file, choosing names on first write.
    /// Returns the collisions met, or the failure that left the disk as it was.
    mutating func write(_ entry: inout RecordingEntry) -> Result<[RecordingCollision], RecordingWriteFailure> {
        var collisions: [RecordingCollision] = []
        let path = entry.file ?? choosePath(for: entry, collisions: &collisions)
        entry.file = path
        claimedFiles.insert(path)
        assignFreeIDs(&entry, path: path, collisions: &collisions)
        var mappings = entry.mappings
        var named: [(index: Int, name: String)] = []
        for index in entry.steps.indices {
            guard let body = entry.steps[index].bodyFile else { continue }
            let name: String
            if let chosen = entry.bodyNames[index] {
                name = chosen
            } else {
                name = chooseBodyName(for: entry, step: index, body: body, mappingPath: path, collisions: &collisions)
                entry.bodyNames[index] = name
            }
            let bodyPath = FileSystem.join(filesDirectory, name)
            if let failure = prepare(filesDirectory) { return .failure(failure) }
            if !Self.holds(bodyPath, body.bytes) {
                do {
                    try writer.writeBodyFile(name, body.bytes)
                } catch {
                    return .failure(RecordingWriteFailure(path: bodyPath, reason: error.pathAndReason.reason))
                }
            }
            if !bodyFilesWritten.contains(bodyPath) { bodyFilesWritten.append(bodyPath) }
            mappings[index].response.body = .file(name)
            named.append((index, name))
        }
        if let failure = prepare(mappingsDirectory) { return .failure(failure) }
        do {
            try writer.writeMappings(mappings, to: path)
        } catch {
            return .failure(RecordingWriteFailure(path: path, reason: error.pathAndReason.reason))
        }
        for mapping in mappings { existing.idOwners[mapping.id] = path }
        // On disk now: the mappings name their body files, and the bytes need not stay in memory.
        for (index, name) in named {
            entry.steps[index].mapping.response.body = .file(name)
            entry.steps[index].bodyFile = nil
        }
        entry.isWritten = true
        return .success(collisions)
    }

    /// An earlier recording of the same request, else `SLUG.json`, `SLUG-2.json`, ... the
    /// first that is free or is that earlier recording.
    private mutating func choosePath(for entry: RecordingEntry, collisions: inout [RecordingCollision]) -> String {
        let firstID = entry.steps[0].mapping.id
        if let owner = existing.idOwners[firstID], existing.files[owner]?.isRecording == true,
            !claimedFiles.contains(owner)
        {
            return owner
        }
        var refused: [(String, String)] = []
        var number = 1
        while true {
            let candidate = FileSystem.join(mappingsDirectory, entry.slug + (number == 1 ? "" : "-\(number)") + ".json")
            number += 1
            if claimedFiles.contains(candidate) { continue }
            switch ExistingStubFiles.occupant(of: candidate) {
            case .nothing:
                collisions += refused.map { RecordingCollision(wanted: $0.0, occupant: $0.1, writtenTo: candidate) }
                return candidate
            case .symbolicLink: refused.append((candidate, "a symbolic link"))
            case .other: refused.append((candidate, "not a regular file"))
            case .file:
                guard let file = existing.files[candidate] else {
                    refused.append((candidate, "a file petmock did not read"))
                    continue
                }
                if file.isRecording && file.ids.first == firstID {
                    collisions += refused.map { RecordingCollision(wanted: $0.0, occupant: $0.1, writtenTo: candidate) }
                    return candidate
                }
                refused.append(
                    (candidate, file.isRecording ? "a recording of another request" : "a hand-written mapping"))
            }
        }
    }

    /// Gives a step a new id when a mapping in another file already uses its id (a copy of
    /// an earlier recording, say), so the folder never holds one id twice.
    private func assignFreeIDs(_ entry: inout RecordingEntry, path: String, collisions: inout [RecordingCollision]) {
        for index in entry.steps.indices {
            var id = entry.steps[index].mapping.id
            var salt = 1
            while let owner = existing.idOwners[id], owner != path {
                if salt == 1 {
                    collisions.append(
                        RecordingCollision(wanted: owner, occupant: "a mapping using the id \(id)", writtenTo: path))
                }
                id = Identifiers.stableUUID(of: entry.key + Array("\u{0}step \(index + 1) copy \(salt)".utf8))
                salt += 1
            }
            entry.steps[index].mapping.id = id
        }
    }

    /// `STEM.EXT` for the first step and `STEM-stepN.EXT` for later ones, where STEM is the
    /// mapping file's name; a name taken by a file petmock did not write gets `-2`, `-3`, ...
    private mutating func chooseBodyName(
        for entry: RecordingEntry, step: Int, body: PendingBodyFile, mappingPath: String,
        collisions: inout [RecordingCollision]
    ) -> String {
        var stem = FileSystem.lastComponent(of: mappingPath)
        if stem.hasSuffix(".json") { stem.removeLast(5) }
        if step > 0 { stem += "-step\(step + 1)" }
        let earlier = existing.files[mappingPath].map { $0.isRecording ? $0.bodyFiles : [] } ?? []
        var refused: [(String, String)] = []
        var number = 1
        while true {
            let name = stem + (number == 1 ? "" : "-\(number)") + "." + body.fileExtension
            number += 1
            let path = FileSystem.join(filesDirectory, name)
            if claimedBodies.contains(name) { continue }
            let free: Bool
            switch ExistingStubFiles.occupant(of: path) {
            case .nothing: free = true
            case .file:
                free = earlier.contains(name) || Self.holds(path, body.bytes)
                if !free { refused.append((path, "a body file petmock did not write")) }
            case .symbolicLink:
                free = false
                refused.append((path, "a symbolic link"))
            case .other:
                free = false
                refused.append((path, "not a regular file"))
            }
            if free {
                claimedBodies.insert(name)
                collisions += refused.map { RecordingCollision(wanted: $0.0, occupant: $0.1, writtenTo: path) }
                return name
            }
        }
    }

    /// Whether a regular file (not a link) at the path holds exactly these bytes.
    private static func holds(_ path: String, _ bytes: [UInt8]) -> Bool {
        guard ExistingStubFiles.occupant(of: path) == .file else { return false }
        return (try? FileSystem.read(path)) == bytes
    }
}

/// A file the writer could not write, and why.
struct RecordingWriteFailure: Error, Sendable, Hashable {
    let path: String
    let reason: String
}
