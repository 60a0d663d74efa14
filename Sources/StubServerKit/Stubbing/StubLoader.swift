import Dispatch
import JSONKit
import Platform

/// Reads a WireMock stub root: every `mappings/**/*.json` (one mapping or
/// `{"mappings": [...]}`) with bodies from `__files/`. Every problem in every file is
/// reported; a bad file or mapping never keeps the good ones from loading.
///
/// ```swift
/// let report = try StubLoader(root: "Stubs").load()
/// for problem in report.problems { print(problem) }     // file: error: $.path: expected ..., found ...
/// ```
public struct StubLoader: Sendable {
    /// The stub root, as given.
    public let root: String
    /// Check every response as a template (`--global-response-templating`), not only those
    /// naming `response-template`.
    public var globalResponseTemplating: Bool

    /// Creates a loader for a stub root (the folder holding `mappings/` and `__files/`).
    public init(root: String, globalResponseTemplating: Bool = false) {
        self.root = root
        self.globalResponseTemplating = globalResponseTemplating
    }

    /// `ROOT/mappings`.
    public var mappingsDirectory: String { FileSystem.join(root, "mappings") }
    /// `ROOT/__files`.
    public var filesDirectory: String { FileSystem.join(root, "__files") }

    /// Loads and checks every mapping file; throws only when the root itself cannot be read.
    public func load() throws(StubLoadError) -> StubLoadReport {
        var sequence = 0
        var ids: [String: String] = [:]
        let files = try loadAll(
            compiler: StubCompiler(filesRoot: filesDirectory, globalTemplating: globalResponseTemplating),
            sequence: &sequence, ids: &ids)
        return StubLoadReport(
            files: files.map {
                StubFileReport(
                    path: $0.path, mappings: $0.stubs.map(\.mapping), problems: $0.problems, shadows: $0.shadows)
            })
    }

    /// The mapping files under `mappings/`, sorted; hidden files and other extensions skipped.
    func mappingFiles() throws(StubLoadError) -> [String] {
        try mappingFileListing().files
    }

    /// The mapping files under `mappings/`, and the symbolic links there that lead out of the
    /// stub folder (not followed) with their targets.
    func mappingFileListing() throws(StubLoadError) -> (files: [String], outside: [(path: String, target: String)]) {
        guard let kind = FileSystem.kind(of: root) else { throw .rootNotFound(root) }
        guard kind == .directory, let realRoot = FileSystem.resolve(root) else {
            throw .unreadableRoot(root, reason: "not a directory")
        }
        guard FileSystem.kind(of: mappingsDirectory) != nil else { return ([], []) }
        var outside: [(path: String, target: String)] = []
        do {
            let files = try FileSystem.files(
                under: mappingsDirectory, confinedTo: realRoot,
                onOutside: { path, target in
                    // Links to mapping files and to folders (which may hold some) are reported.
                    if Self.isMappingFile(path) || FileSystem.kind(of: path) == .directory {
                        outside.append((path, target))
                    }
                })
            return (files.filter { Self.isMappingFile($0) }, outside)
        } catch {
            throw .unreadableRoot(root, reason: error.description)
        }
    }

    /// A file or folder in `mappings/` that is a symbolic link out of the stub folder: reported,
    /// never read, so `--stubs` cannot be used to serve files from elsewhere.
    private static func outsideProblem(_ path: String, target: String) -> StubProblem {
        StubProblem(
            .error, .unreadableFile, file: path, path: "$",
            detail: "not loaded: a symbolic link to '\(target)', outside the stub folder")
    }

    /// Whether a path names a mapping file: `*.json`, not hidden.
    static func isMappingFile(_ path: String) -> Bool {
        let name = FileSystem.lastComponent(of: path)
        return name.hasSuffix(".json") && !name.hasPrefix(".")
    }

    /// Loads every mapping file. Files are read and compiled in parallel (regular expressions
    /// make compiling the slow part); each numbers its mappings from its own base, and ids
    /// are checked across files afterwards in file order, so the result is the one a
    /// sequential load would give.
    func loadAll(
        compiler: StubCompiler, sequence: inout Int, ids: inout [String: String]
    ) throws(StubLoadError) -> [LoadedFile] {
        let (paths, outside) = try mappingFileListing()
        let base = sequence
        let stride = 1 << 20
        let results = Locked<[LoadedFile?]>(Array(repeating: nil, count: paths.count))
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
            var fileSequence = base + index * stride
            var ownIDs: [String: String] = [:]
            let loaded = loadFile(paths[index], compiler: compiler, sequence: &fileSequence, ids: &ownIDs)
            results.withLock { $0[index] = loaded }
        }
        sequence = base + paths.count * stride
        var files: [LoadedFile] = []
        for loaded in results.withLock({ $0 }).compactMap({ $0 }) {
            var stubs: [CompiledStub] = []
            var basePaths: [JSONPath] = []
            var problems = loaded.problems
            for (stub, path) in zip(loaded.stubs, loaded.basePaths) {
                if let owner = ids[stub.mapping.id] {
                    problems.append(Self.duplicate(stub.mapping.id, owner: owner, file: loaded.path, at: path))
                    continue
                }
                ids[stub.mapping.id] = loaded.path
                stubs.append(stub)
                basePaths.append(path)
            }
            files.append(LoadedFile(path: loaded.path, stubs: stubs, basePaths: basePaths, problems: problems))
        }
        for (path, target) in outside {
            files.append(
                LoadedFile(
                    path: path, stubs: [], basePaths: [], problems: [Self.outsideProblem(path, target: target)]))
        }
        Self.reportShadows(in: &files)
        return files
    }

    /// Adds a warning to every mapping that can never answer (``StubShadow``), on its file.
    static func reportShadows(in files: inout [LoadedFile]) {
        let entries = files.flatMap { file in
            zip(file.stubs, file.basePaths).map { stub, path in
                (
                    entry: StubShadowing.Entry(stub.mapping, file: file.path, path: path.description),
                    precedence: stub.precedence
                )
            }
        }
        let shadows = Dictionary(grouping: StubShadowing.shadows(among: entries), by: \.shadowed.file)
        guard !shadows.isEmpty else { return }
        for index in files.indices {
            guard let found = shadows[files[index].path] else { continue }
            files[index].shadows += found
            files[index].problems += found.map(\.problem)
        }
    }

    private static func duplicate(_ id: String, owner: String, file: String, at path: JSONPath) -> StubProblem {
        StubProblem(
            .error, .duplicateID, file: file, path: path.appending(key: "id").description,
            expected: "an id no other mapping uses", found: "'\(id)', already used in \(owner)")
    }

    /// Loads one mapping file. `ids` maps the ids already taken to where; the file's own
    /// are added. Each mapping gets the next `sequence`.
    func loadFile(
        _ path: String, compiler: StubCompiler, sequence: inout Int, ids: inout [String: String]
    ) -> LoadedFile {
        // A file the watcher reports is checked too: it may sit in a linked folder outside.
        if let realRoot = FileSystem.resolve(root), let real = FileSystem.resolve(path),
            !FileSystem.isInside(real, realRoot)
        {
            return LoadedFile(
                path: path, stubs: [], basePaths: [], problems: [Self.outsideProblem(path, target: real)])
        }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.read(path)
        } catch {
            return LoadedFile(
                path: path, stubs: [], basePaths: [],
                problems: [
                    StubProblem(.error, .unreadableFile, file: path, path: "$", detail: "cannot read: \(error.reason)")
                ])
        }
        let json: JSONValue
        do {
            json = try JSONValue(parsing: bytes)
        } catch {
            return LoadedFile(
                path: path, stubs: [], basePaths: [],
                problems: [
                    StubProblem(
                        .error, .invalidJSON, file: path, path: "$",
                        expected: error.expected, found: error.found, detail: "not valid JSON at \(error.location)")
                ])
        }
        var decoder = MappingDecoder(file: path)
        let mappings = decoder.decodeFile(json)
        var problems = decoder.problems
        var stubs: [CompiledStub] = []
        var basePaths: [JSONPath] = []
        for (mapping, basePath) in mappings {
            if let owner = ids[mapping.id] {
                problems.append(Self.duplicate(mapping.id, owner: owner, file: path, at: basePath))
                continue
            }
            sequence += 1
            let compiled = compiler.compile(
                mapping, sequence: sequence, origin: .file(path), file: path, basePath: basePath)
            problems += compiled.problems
            if let stub = compiled.stub {
                stubs.append(stub)
                basePaths.append(basePath)
                ids[mapping.id] = path
            }
        }
        // A mapping that did not decode never loads, but its patterns and body file are
        // checked all the same, so one run of `validate` lists every problem in the file.
        for (mapping, basePath) in decoder.rejected {
            let checked = compiler.compile(mapping, sequence: 0, origin: .file(path), file: path, basePath: basePath)
            problems += checked.problems
        }
        return LoadedFile(path: path, stubs: stubs, basePaths: basePaths, problems: problems)
    }
}

/// One mapping file as loaded: its compiled stubs and its problems.
struct LoadedFile: Sendable {
    let path: String
    let stubs: [CompiledStub]
    /// Where each stub's mapping is in the file.
    let basePaths: [JSONPath]
    var problems: [StubProblem]
    /// The file's mappings that never answer, each with the mapping that answers instead.
    var shadows: [StubShadow] = []

    var hasErrors: Bool { problems.contains(where: \.isError) }
}

/// What loading a stub root found.
public struct StubLoadReport: Sendable {
    /// Every mapping file, in load order.
    public var files: [StubFileReport]

    /// Creates a report.
    public init(files: [StubFileReport]) {
        self.files = files
    }

    /// The mappings that loaded, in load order.
    public var mappings: [StubMapping] { files.flatMap(\.mappings) }
    /// Every problem, file by file.
    public var problems: [StubProblem] { files.flatMap(\.problems) }
    /// How many errors.
    public var errorCount: Int { problems.filter(\.isError).count }
    /// How many warnings.
    public var warningCount: Int { problems.count - errorCount }
    /// The mappings that never answer because another goes first (each is a warning too).
    public var shadows: [StubShadow] { files.flatMap(\.shadows) }
}

/// One mapping file in a ``StubLoadReport``.
public struct StubFileReport: Sendable {
    /// The file's path.
    public var path: String
    /// The mappings from it that loaded.
    public var mappings: [StubMapping]
    /// Its problems.
    public var problems: [StubProblem]
    /// Its mappings that never answer (``StubShadow``); each is among the problems too.
    public var shadows: [StubShadow]

    /// Creates a file report.
    public init(path: String, mappings: [StubMapping], problems: [StubProblem], shadows: [StubShadow] = []) {
        self.path = path
        self.mappings = mappings
        self.problems = problems
        self.shadows = shadows
    }
}
