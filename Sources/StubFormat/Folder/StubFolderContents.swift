import JSONKit

/// One mapping as read from a file: the mapping, the file and where in it.
public struct StubEntry: Sendable, Hashable {
    /// The mapping.
    public var mapping: StubMapping
    /// The mapping file, as listed (`Stubs/mappings/pets.json`).
    public var file: String
    /// Where the mapping is in the file: `$`, or `$.mappings[2]`.
    public var path: JSONPath

    /// Creates an entry.
    public init(mapping: StubMapping, file: String, path: JSONPath) {
        self.mapping = mapping
        self.file = file
        self.path = path
    }
}

/// What one mapping file holds.
public struct StubFileContents: Sendable {
    /// The file's path.
    public var path: String
    /// The mappings that decoded without errors, in file order.
    public var mappings: [StubEntry]
    /// The mappings that had errors, with what of them decoded (never served; their body
    /// files and patterns can still be checked, so one run reports every problem).
    public var rejected: [StubEntry]
    /// Every problem of the file, warnings too.
    public var problems: [StubProblem]

    /// Creates file contents.
    public init(path: String, mappings: [StubEntry] = [], rejected: [StubEntry] = [], problems: [StubProblem] = []) {
        self.path = path
        self.mappings = mappings
        self.rejected = rejected
        self.problems = problems
    }
}

/// What a stub folder holds, file by file (``StubFolder/read(only:)``).
public struct StubFolderContents: Sendable {
    /// Every mapping file read, in load order.
    public var files: [StubFileContents]
    /// The problems of the folder as a whole (``StubFolder/layoutProblems(mappingFiles:)``).
    public var folderProblems: [StubProblem]

    /// Creates folder contents.
    public init(files: [StubFileContents], folderProblems: [StubProblem] = []) {
        self.files = files
        self.folderProblems = folderProblems
    }

    /// The mappings that decoded, in load order.
    public var mappings: [StubEntry] { files.flatMap(\.mappings) }
    /// Every problem: the folder's, then file by file.
    public var problems: [StubProblem] { folderProblems + files.flatMap(\.problems) }
}
