import Dispatch
import JSONKit
import Platform
import StubFormat

/// Loads a WireMock stub root for serving: every mapping ``StubFolder`` reads from
/// `mappings/**/*.json`, compiled, with bodies from `__files/`. Every problem in every file is
/// reported; a bad file or mapping never keeps the good ones from loading.
///
/// ```swift
/// let report = try StubLoader(root: "Stubs").load()
/// for problem in report.problems { print(problem) }     // file: error: $.path: expected ..., found ...
/// ```
package struct StubLoader: Sendable {
    /// The stub root, as given.
    package let root: String
    /// Check every response as a template (`--global-response-templating`), not only those
    /// naming `response-template`.
    package var globalResponseTemplating: Bool

    /// Creates a loader for a stub root (the folder holding `mappings/` and `__files/`).
    package init(root: String, globalResponseTemplating: Bool = false) {
        self.root = root
        self.globalResponseTemplating = globalResponseTemplating
    }

    /// The folder's files, read as the stub format has them.
    package var folder: StubFolder { StubFolder(root: root) }
    /// `ROOT/mappings`.
    package var mappingsDirectory: String { folder.mappingsDirectory }
    /// `ROOT/__files`.
    package var filesDirectory: String { folder.filesDirectory }

    /// Loads and checks every mapping file; throws only when the root itself cannot be read.
    package func load() throws(StubLoadError) -> StubLoadReport {
        var sequence = 0
        var ids: [String: String] = [:]
        let files = try loadAll(
            compiler: StubCompiler(filesRoot: filesDirectory, globalTemplating: globalResponseTemplating),
            sequence: &sequence, ids: &ids)
        return StubLoadReport(
            files: files.map {
                StubFileReport(
                    path: $0.path, mappings: $0.stubs.map(\.mapping), problems: $0.problems, shadows: $0.shadows)
            }, folderProblems: folder.layoutProblems(mappingFiles: files.map(\.path)))
    }

    /// The mapping files under `mappings/`, sorted; hidden files and other extensions skipped.
    func mappingFiles() throws(StubLoadError) -> [String] {
        try folder.listing().files
    }

    /// Loads every mapping file. Files are read and compiled in parallel (regular expressions
    /// make compiling the slow part); each numbers its mappings from its own base, and ids
    /// are checked across files afterwards in file order, so the result is the one a
    /// sequential load would give.
    func loadAll(
        compiler: StubCompiler, sequence: inout Int, ids: inout [String: String]
    ) throws(StubLoadError) -> [LoadedFile] {
        let (paths, outside) = try folder.listing()
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
            var refused = loaded.refused
            for (stub, path) in zip(loaded.stubs, loaded.basePaths) {
                if let owner = ids[stub.mapping.id] {
                    let duplicate = StubFolder.duplicateProblem(
                        stub.mapping.id, owner: owner, file: loaded.path, at: path)
                    problems.append(duplicate)
                    refused.append(RefusedStub.make(stub.mapping, file: loaded.path, problems: [duplicate]))
                    continue
                }
                ids[stub.mapping.id] = loaded.path
                stubs.append(stub)
                basePaths.append(path)
            }
            files.append(
                LoadedFile(
                    path: loaded.path, stubs: stubs, basePaths: basePaths, problems: problems, refused: refused))
        }
        for (path, target) in outside {
            let problem = StubFolder.outsideProblem(path, target: target)
            files.append(
                LoadedFile(
                    path: path, stubs: [], basePaths: [], problems: [problem],
                    refused: [RefusedStub.file(path, problems: [problem])]))
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

    /// Loads one mapping file. `ids` maps the ids already taken to where; the file's own
    /// are added. Each mapping gets the next `sequence`.
    func loadFile(
        _ path: String, compiler: StubCompiler, sequence: inout Int, ids: inout [String: String]
    ) -> LoadedFile {
        let contents = folder.readFile(path)
        var problems = contents.problems
        var stubs: [CompiledStub] = []
        var basePaths: [JSONPath] = []
        var refused: [RefusedStub] = []
        for entry in contents.mappings {
            let (mapping, basePath) = (entry.mapping, entry.path)
            if let owner = ids[mapping.id] {
                let duplicate = StubFolder.duplicateProblem(mapping.id, owner: owner, file: path, at: basePath)
                problems.append(duplicate)
                refused.append(RefusedStub.make(mapping, file: path, problems: [duplicate]))
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
            } else {
                refused.append(RefusedStub.make(mapping, file: path, problems: compiled.problems))
            }
        }
        // A mapping that did not decode never loads, but its patterns and body file are
        // checked all the same, so one run of `validate` lists every problem in the file.
        for entry in contents.rejected {
            let checked = compiler.compile(
                entry.mapping, sequence: 0, origin: .file(path), file: path, basePath: entry.path)
            problems += checked.problems
            let decoding = contents.problems.filter { Self.path($0.path, isIn: entry.path.description) }
            refused.append(RefusedStub.make(entry.mapping, file: path, problems: decoding + checked.problems))
        }
        if contents.mappings.isEmpty && contents.rejected.isEmpty && contents.problems.contains(where: \.isError) {
            refused.append(RefusedStub.file(path, problems: contents.problems))
        }
        return LoadedFile(path: path, stubs: stubs, basePaths: basePaths, problems: problems, refused: refused)
    }
}

extension StubLoader {
    /// Whether a problem's JSON path is `base` or inside it (`$.mappings[1].request` is in
    /// `$.mappings[1]`, `$.mappings[10]` is not).
    static func path(_ path: String, isIn base: String) -> Bool {
        guard path.hasPrefix(base) else { return false }
        let rest = path.dropFirst(base.count)
        return rest.isEmpty || rest.hasPrefix(".") || rest.hasPrefix("[")
    }
}

/// One mapping file as loaded: its compiled stubs and its problems.
struct LoadedFile: Sendable {
    let path: String
    let stubs: [CompiledStub]
    /// Where each stub's mapping is in the file.
    let basePaths: [JSONPath]
    var problems: [StubProblem]
    /// The file's mappings not loaded for their errors, for a 404 to name (``RefusedStub``).
    var refused: [RefusedStub] = []
    /// The file's mappings that never answer, each with the mapping that answers instead.
    var shadows: [StubShadow] = []

    var hasErrors: Bool { problems.contains(where: \.isError) }
}

/// What loading a stub root found.
package struct StubLoadReport: Sendable {
    /// Every mapping file, in load order.
    package var files: [StubFileReport]
    /// The problems of the folder as a whole (``StubFolder/layoutProblems(mappingFiles:)``).
    package var folderProblems: [StubProblem]

    /// Creates a report.
    package init(files: [StubFileReport], folderProblems: [StubProblem] = []) {
        self.files = files
        self.folderProblems = folderProblems
    }

    /// The mappings that loaded, in load order.
    package var mappings: [StubMapping] { files.flatMap(\.mappings) }
    /// Every problem: the folder's, then file by file.
    package var problems: [StubProblem] { folderProblems + files.flatMap(\.problems) }
    /// How many errors.
    package var errorCount: Int { problems.filter(\.isError).count }
    /// How many warnings.
    package var warningCount: Int { problems.count - errorCount }
    /// The mappings that never answer because another goes first (each is a warning too).
    package var shadows: [StubShadow] { files.flatMap(\.shadows) }
}

/// One mapping file in a ``StubLoadReport``.
package struct StubFileReport: Sendable {
    /// The file's path.
    package var path: String
    /// The mappings from it that loaded.
    package var mappings: [StubMapping]
    /// Its problems.
    package var problems: [StubProblem]
    /// Its mappings that never answer (``StubShadow``); each is among the problems too.
    package var shadows: [StubShadow]

    /// Creates a file report.
    package init(path: String, mappings: [StubMapping], problems: [StubProblem], shadows: [StubShadow] = []) {
        self.path = path
        self.mappings = mappings
        self.problems = problems
        self.shadows = shadows
    }
}
