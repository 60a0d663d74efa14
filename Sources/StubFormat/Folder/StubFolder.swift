import JSONKit
import Platform

/// A WireMock stub folder as files: `mappings/**/*.json` (one mapping or `{"mappings": [...]}`
/// each) and `__files/`. Reads mappings to values and reports every problem, without
/// compiling matchers or serving; petmock's loader compiles what this reads, and
/// `petcontract verify --stub` checks it, so both see the same mappings and problems.
///
/// ```swift
/// let contents = try StubFolder(root: "Stubs").read()
/// for problem in contents.problems { print(problem) }   // file: error: $.path: expected ..., found ...
/// for entry in contents.mappings { print(entry.mapping.request.url as Any) }
/// ```
public struct StubFolder: Sendable {
    /// The stub root, as given.
    public let root: String

    /// A stub folder at `root` (the folder holding `mappings/` and `__files/`).
    public init(root: String) {
        self.root = root
    }

    /// `ROOT/mappings`.
    public var mappingsDirectory: String { FileSystem.join(root, "mappings") }
    /// `ROOT/__files`.
    public var filesDirectory: String { FileSystem.join(root, "__files") }

    /// The mapping files under `mappings/`, sorted (hidden files and other extensions
    /// skipped), and the symbolic links there that lead out of the stub folder (not followed),
    /// with their targets. Throws when the root itself cannot be read.
    public func listing() throws(StubLoadError) -> (files: [String], outside: [(path: String, target: String)]) {
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

    /// Whether a path names a mapping file: `*.json`, not hidden.
    public static func isMappingFile(_ path: String) -> Bool {
        let name = FileSystem.lastComponent(of: path)
        return name.hasSuffix(".json") && !name.hasPrefix(".")
    }

    /// A file or folder in `mappings/` that is a symbolic link out of the stub folder: reported,
    /// never read, so a stub folder cannot be used to read files from elsewhere.
    public static func outsideProblem(_ path: String, target: String) -> StubProblem {
        StubProblem(
            .error, .unreadableFile, file: path, path: "$",
            detail: "not loaded: a symbolic link to '\(target)', outside the stub folder")
    }

    /// What is wrong with the folder as a whole when it holds no mapping file where WireMock
    /// reads them: no `mappings/` (the mapping files put straight into the root, the classic
    /// mistake), or an empty one. `mappingFiles` is what ``listing()`` found; a folder with
    /// mapping files has no such problem.
    public func layoutProblems(mappingFiles: [String]) -> [StubProblem] {
        guard mappingFiles.isEmpty, FileSystem.kind(of: root) == .directory else { return [] }
        let names = (try? FileSystem.names(in: root)) ?? []
        let stray = names.filter { Self.isMappingFile($0) && FileSystem.kind(of: FileSystem.join(root, $0)) == .file }
        let folder = mappingsDirectory + "/"
        let files = "\(stray.count) JSON file\(stray.count == 1 ? "" : "s")"
        let detail: String
        switch (FileSystem.kind(of: mappingsDirectory) == .directory, stray.isEmpty) {
        case (false, false):
            detail =
                "\(root) has \(files) but no mappings/ folder: WireMock reads mappings from \(folder) — move them there"
        case (false, true):
            detail = "\(root) has no mappings/ folder: WireMock reads mappings from \(folder)"
        case (true, false):
            detail =
                "\(folder) holds no mapping files, but \(root) has \(files): WireMock reads mappings from "
                + "\(folder) — move them there"
        case (true, true):
            detail = "\(folder) holds no mapping files (*.json): nothing is served from \(root)"
        }
        return [StubProblem(.warning, .noMappings, file: "", path: "", detail: detail)]
    }

    /// The problem of a mapping whose id another mapping (in `owner`) already uses.
    public static func duplicateProblem(_ id: String, owner: String, file: String, at path: JSONPath) -> StubProblem {
        StubProblem(
            .error, .duplicateID, file: file, path: path.appending(key: "id").description,
            expected: "an id no other mapping uses", found: "'\(id)', already used in \(owner)")
    }

    /// Reads and decodes one mapping file (a path under `mappings/`, as listed).
    public func readFile(_ path: String) -> StubFileContents {
        // A file a watcher reports is checked too: it may sit in a linked folder outside.
        if let realRoot = FileSystem.resolve(root), let real = FileSystem.resolve(path),
            !FileSystem.isInside(real, realRoot)
        {
            return StubFileContents(path: path, problems: [Self.outsideProblem(path, target: real)])
        }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.read(path)
        } catch {
            return StubFileContents(
                path: path,
                problems: [
                    StubProblem(.error, .unreadableFile, file: path, path: "$", detail: "cannot read: \(error.reason)")
                ])
        }
        let json: JSONValue
        do {
            json = try JSONValue(parsing: bytes)
        } catch {
            return StubFileContents(
                path: path,
                problems: [
                    StubProblem(
                        .error, .invalidJSON, file: path, path: "$", expected: error.expected, found: error.found,
                        detail: "not valid JSON at \(error.location)")
                ])
        }
        var decoder = MappingDecoder(file: path)
        let mappings = decoder.decodeFile(json)
        return StubFileContents(
            path: path, mappings: mappings.map { StubEntry(mapping: $0.mapping, file: path, path: $0.path) },
            rejected: decoder.rejected.map { StubEntry(mapping: $0.mapping, file: path, path: $0.path) },
            problems: decoder.problems)
    }

    /// Reads every mapping file (or, with `only`, those whose paths relative to `mappings/`
    /// it holds, such as `get-api-pets.json`), in load order. An id used twice is a problem
    /// on the later mapping, which is left out, as petmock leaves it out.
    public func read(only: Set<String>? = nil) throws(StubLoadError) -> StubFolderContents {
        let (paths, outside) = try listing()
        let prefix = mappingsDirectory.hasSuffix("/") ? mappingsDirectory : mappingsDirectory + "/"
        var files: [StubFileContents] = []
        var ids: [String: String] = [:]
        for path in paths {
            if let only, !only.contains(path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path) {
                continue
            }
            var contents = readFile(path)
            var kept: [StubEntry] = []
            for entry in contents.mappings {
                if let owner = ids[entry.mapping.id] {
                    contents.problems.append(
                        Self.duplicateProblem(entry.mapping.id, owner: owner, file: path, at: entry.path))
                    continue
                }
                ids[entry.mapping.id] = path
                kept.append(entry)
            }
            contents.mappings = kept
            files.append(contents)
        }
        for (path, target) in outside where only == nil {
            files.append(StubFileContents(path: path, problems: [Self.outsideProblem(path, target: target)]))
        }
        return StubFolderContents(files: files, folderProblems: only == nil ? layoutProblems(mappingFiles: paths) : [])
    }

    /// The bytes a mapping's response body sends, read under the folder's body-file rule
    /// (``BodyFileResolver``), or the problem petmock reports for it.
    public func body(of entry: StubEntry) -> Result<[UInt8], StubProblem> {
        entry.mapping.response.body.contents(
            filesRoot: filesDirectory, file: entry.file,
            path: entry.path.appending(key: "response").appending(key: "bodyFileName").description)
    }
}
