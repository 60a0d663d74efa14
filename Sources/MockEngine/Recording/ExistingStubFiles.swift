import StubFormat

/// What a stub folder held before recording began: which mapping files exist, which ids they
/// use, and which of them are earlier recordings the recorder may refresh.
struct ExistingStubFiles: Sendable {
    /// One mapping file.
    struct File: Sendable {
        /// The ids of its mappings that loaded.
        var ids: [String]
        /// Whether every mapping in it loaded and carries the recorder's marker.
        var isRecording: Bool
        /// The `__files/` names its mappings use.
        var bodyFiles: [String]
    }

    /// Mapping files by path (as the loader names them: `ROOT/mappings/...`).
    var files: [String: File] = [:]
    /// Which file uses each id.
    var idOwners: [String: String] = [:]

    /// Reads the folder's mapping files; an unreadable or absent folder holds nothing.
    init(root: String) {
        guard let report = try? StubLoader(root: root).load() else { return }
        for file in report.files {
            let loadedAll = !file.problems.contains(where: \.isError) && !file.mappings.isEmpty
            var bodies: [String] = []
            for mapping in file.mappings {
                if case .file(let name) = mapping.response.body { bodies.append(name) }
                idOwners[mapping.id] = file.path
            }
            files[file.path] = File(
                ids: file.mappings.map(\.id),
                isRecording: loadedAll && file.mappings.allSatisfy(RecordedMappingBuilder.isRecorded),
                bodyFiles: bodies)
        }
    }

    /// What is at a path, without following a symbolic link there.
    typealias Occupant = StubFolderWriter.Occupant

    static func occupant(of path: String) -> Occupant {
        StubFolderWriter.occupant(of: path)
    }
}
