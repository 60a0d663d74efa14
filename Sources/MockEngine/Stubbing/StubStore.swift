import Platform
import StubFormat

/// Every mapping the server knows, by where it came from (files, the admin API, Swift code),
/// and the indexed snapshot requests are served from. Writers rebuild the index and swap it
/// in; a request takes the current snapshot with one short lock and never waits for a
/// rebuild.
///
/// A change that writes or removes a mapping file is made in three steps: prepared under the
/// store's lock (checked, compiled, the file marked as being written), the file written or
/// removed outside it, then published under it; a write that fails changes nothing. No disk
/// write ever holds the lock, so requests, reloads and other admin calls never wait on one.
///
/// Admin changes to file mappings follow WireMock: a persistent mapping (`"persistent": true`,
/// alone in its file) has its file rewritten or removed; any other file mapping is changed in
/// memory, and the change, a ``MappingOverride``, outlives reloads of other files until its
/// own file changes or the mappings are reset.
package final class StubStore: Sendable {
    /// What requests are served from: the index and the server-wide variant.
    package struct Snapshot: Sendable {
        package let index: StubIndex
        let serverVariant: Variant?
    }

    struct Sources {
        var files: [String: [CompiledStub]] = [:]
        /// The mappings each file has that were not loaded for their errors (``RefusedStub``).
        var refused: [String: [RefusedStub]] = [:]
        /// Admin changes not written to the files they concern, by file, then mapping id.
        var overrides: [String: [String: MappingOverride]] = [:]
        var admin: [CompiledStub] = []
        var code: [CompiledStub] = []
        var codeMappings: [StubMapping] = []
        var sequence = 0
        /// Mapping files being written or removed outside the lock, with the ids of the
        /// mappings the change concerns.
        var writing: [String: [String]] = [:]

        var all: [CompiledStub] { files.values.flatMap { $0 } + admin + code }
        var allRefused: [RefusedStub] { refused.keys.sorted().flatMap { refused[$0] ?? [] } }

        func ids(excludingFile path: String? = nil) -> [String: String] {
            var ids: [String: String] = [:]
            for (file, stubs) in files where file != path {
                for stub in stubs { ids[stub.mapping.id] = file }
            }
            for stub in admin { ids[stub.mapping.id] = "a mapping added through the admin API" }
            for stub in code { ids[stub.mapping.id] = "a mapping given in code" }
            return ids
        }
    }

    /// The stub root's loader, or nil for mappings given only in code.
    package let loader: StubLoader?
    /// What writes the stub root's files, or nil without one.
    let writer: StubFolderWriter?
    let compiler: StubCompiler
    /// The clock the stubs read (date matching's and templates' "now") and the journal stamps by.
    package var clock: TimeSource { compiler.clock }
    let sources = Locked(Sources())
    private let current: Locked<Snapshot>

    /// Loads the root (when there is one) and the code mappings; returns the problems found.
    package init(
        loader: StubLoader?, codeMappings: [StubMapping], serverVariant: Variant?,
        globalResponseTemplating: Bool = false, clock: TimeSource = .system,
        fileOperations: StubFileOperations = .disk
    ) throws(StubLoadError) {
        self.loader = loader
        writer = loader.map { StubFolderWriter(folder: $0.folder, operations: fileOperations) }
        compiler = StubCompiler(
            filesRoot: loader?.filesDirectory, globalTemplating: globalResponseTemplating, clock: clock)
        current = Locked(Snapshot(index: StubIndex([]), serverVariant: serverVariant))
        var state = Sources()
        state.codeMappings = codeMappings
        let problems = try Self.loadEverything(into: &state, loader: loader, compiler: compiler)
        self.initialProblems = problems
        let stubs = state.all
        sources.withLock { $0 = state }
        let refused = state.allRefused
        current.withLock { $0 = Snapshot(index: StubIndex(stubs, refused: refused), serverVariant: serverVariant) }
    }

    /// The problems the first load found.
    package let initialProblems: [StubProblem]

    private static func loadEverything(
        into state: inout Sources, loader: StubLoader?, compiler: StubCompiler
    ) throws(StubLoadError) -> [StubProblem] {
        var problems: [StubProblem] = []
        state.files = [:]
        state.refused = [:]
        state.overrides = [:]
        state.code = []
        var ids: [String: String] = [:]
        if let loader {
            for file in try loader.loadAll(compiler: compiler, sequence: &state.sequence, ids: &ids) {
                state.files[file.path] = file.stubs
                state.refused[file.path] = file.refused.isEmpty ? nil : file.refused
                problems += file.problems
            }
        }
        for admin in state.admin { ids[admin.mapping.id] = "a mapping added through the admin API" }
        return problems + compileCode(into: &state, ids: ids, compiler: compiler)
    }

    /// Compiles the code mappings into `state.code`, each id checked against `ids` (the files'
    /// and the admin API's); returns their problems, paths as `mappings[0].request`.
    private static func compileCode(
        into state: inout Sources, ids: [String: String], compiler: StubCompiler
    ) -> [StubProblem] {
        var ids = ids
        var problems: [StubProblem] = []
        state.code = []
        for (index, mapping) in state.codeMappings.enumerated() {
            let path = "mappings[\(index)]"
            if let owner = ids[mapping.id] {
                problems.append(
                    StubProblem(
                        .error, .duplicateID, file: "", path: "\(path).id", expected: "an id no other mapping uses",
                        found: "'\(mapping.id)', already used in \(owner)"))
                continue
            }
            state.sequence += 1
            let compiled = compiler.compile(mapping, sequence: state.sequence, origin: .code, file: "")
            problems += compiled.problems.map { problem in
                var problem = problem
                problem.path = path + problem.path.dropFirst()
                return problem
            }
            if let stub = compiled.stub {
                state.code.append(stub)
                ids[mapping.id] = "a mapping given in code"
            }
        }
        return problems
    }

    /// Replaces the mappings given in code (those of a Postman collection read again), admin
    /// changes to the old ones dropped; returns how many serve and the problems of the others.
    package func replaceCodeMappings(_ mappings: [StubMapping]) -> (serving: Int, problems: [StubProblem]) {
        sources.withLock { state in
            state.codeMappings = mappings
            var ids: [String: String] = [:]
            for (file, stubs) in state.files {
                for stub in stubs { ids[stub.mapping.id] = file }
            }
            for stub in state.admin { ids[stub.mapping.id] = "a mapping added through the admin API" }
            let problems = Self.compileCode(into: &state, ids: ids, compiler: compiler)
            publish(state)
            return (state.code.count, problems)
        }
    }

    /// The snapshot to serve a request from.
    package func snapshot() -> Snapshot {
        current.withLock { $0 }
    }

    /// Sets (or clears) the server-wide variant.
    package func setServerVariant(_ variant: Variant?) {
        current.withLock { $0 = Snapshot(index: $0.index, serverVariant: variant) }
    }

    func publish(_ state: Sources) {
        let index = StubIndex(state.all, refused: state.allRefused)
        current.withLock { $0 = Snapshot(index: index, serverVariant: $0.serverVariant) }
    }

    /// The stub with this id.
    func stub(id: String) -> CompiledStub? {
        snapshot().index.all.first { $0.mapping.id == id }
    }

    /// Adds a mapping (replacing any with the same id); returns it compiled, or its problems.
    func add(_ mapping: StubMapping) -> Result<CompiledStub, StubLoadError> {
        sources.withLock { state in
            state.sequence += 1
            let compiled = compiler.compile(mapping, sequence: state.sequence, origin: .admin, file: "")
            guard let stub = compiled.stub else { return .failure(.invalidStubs(compiled.problems)) }
            Self.removeStub(id: mapping.id, from: &state, keepingOut: true)
            state.admin.append(stub)
            publish(state)
            return .success(stub)
        }
    }

    /// Removes the mapping with this id from memory only, keeping no override (the recorder
    /// re-reads the files it wrote); returns whether there was one.
    func remove(id: String) -> Bool {
        sources.withLock { state in
            let removed = Self.removeStub(id: id, from: &state, keepingOut: false)
            if removed { publish(state) }
            return removed
        }
    }

    /// Removes every mapping from memory; the files stay, and their mappings stay out (as
    /// overrides) until each file changes or the mappings are reset.
    func removeAll() {
        sources.withLock { state in
            for (file, stubs) in state.files {
                for stub in stubs { state.overrides[file, default: [:]][stub.mapping.id] = .removed }
            }
            state.files = state.files.mapValues { _ in [] }
            state.admin = []
            state.code = []
            publish(state)
        }
    }

    /// Goes back to what the files and code define: admin mappings and overrides dropped,
    /// files re-read.
    func reset() throws(StubLoadError) -> [StubProblem] {
        try sources.withLock { (state) throws(StubLoadError) -> [StubProblem] in
            state.admin = []
            let problems = try Self.loadEverything(into: &state, loader: loader, compiler: compiler)
            publish(state)
            return problems
        }
    }

    /// The mappings added through the admin API and not saved yet.
    func adminMappings() -> [StubMapping] {
        sources.withLock { $0.admin.map(\.mapping) }
    }

    /// Re-reads one mapping file. A version with errors does not replace a version already
    /// serving; a deleted file's mappings go away. When the file itself changed, the admin
    /// overrides of its mappings are dropped (the file has the last word); `keepingOverrides`
    /// re-applies them, for a reload the file did not ask for (a body file changed).
    package func reloadFile(_ path: String, keepingOverrides: Bool = false) -> StubServerEvent? {
        guard let loader else { return nil }
        return sources.withLock { state -> StubServerEvent? in
            guard FileSystem.kind(of: path) == .file else {
                state.overrides[path] = nil
                let wasRefused = state.refused.removeValue(forKey: path) != nil
                guard let previous = state.files.removeValue(forKey: path) else {
                    // A file that only had refusals: the 404s stop naming it.
                    if wasRefused { publish(state) }
                    return nil
                }
                publish(state)
                return .removed(file: path, mappings: previous.count)
            }
            var ids = state.ids(excludingFile: path)
            // A mapping being written to this file is the file's: the write publishes it.
            for id in state.writing[path] ?? [] { ids[id] = nil }
            if keepingOverrides {
                // An id the admin API took over from this file is this file's to load again.
                for (id, change) in state.overrides[path] ?? [:] where change == .removed { ids[id] = nil }
            } else {
                state.overrides[path] = nil
            }
            let loaded = loader.loadFile(path, compiler: compiler, sequence: &state.sequence, ids: &ids)
            state.refused[path] = loaded.refused.isEmpty ? nil : loaded.refused
            // Only a file that serves something has a last good version to keep.
            if loaded.hasErrors, state.files[path]?.isEmpty == false {
                publish(state)
                return .reloadFailed(file: path, problems: loaded.problems, keptPrevious: true)
            }
            let stubs = applyOverrides(to: loaded.stubs, of: path, in: &state)
            state.files[path] = stubs
            publish(state)
            if loaded.hasErrors && stubs.isEmpty { return .neverServed(file: path, problems: loaded.problems) }
            if loaded.hasErrors { return .reloadFailed(file: path, problems: loaded.problems, keptPrevious: false) }
            return .reloaded(file: path, mappings: stubs.count, problems: loaded.problems)
        }
    }

    /// A file's stubs with its overrides applied. A replacement that no longer compiles (its
    /// body file went) is dropped, and the file's version serves.
    private func applyOverrides(to stubs: [CompiledStub], of file: String, in state: inout Sources) -> [CompiledStub] {
        guard var overrides = state.overrides[file] else { return stubs }
        var result: [CompiledStub] = []
        for stub in stubs {
            switch overrides[stub.mapping.id] {
            case nil:
                result.append(stub)
            case .removed?:
                continue
            case .replaced(let mapping)?:
                let compiled = compiler.compile(mapping, sequence: stub.sequence, origin: .file(file), file: file)
                if let replaced = compiled.stub {
                    result.append(replaced)
                } else {
                    overrides[stub.mapping.id] = nil
                    result.append(stub)
                }
            }
        }
        state.overrides[file] = overrides.isEmpty ? nil : overrides
        return result
    }

    /// The mapping files the store serves from or the disk holds (those under `folder`, when
    /// given), sorted.
    package func mappingFiles(under folder: String? = nil) -> [String] {
        guard let loader else { return [] }
        let prefix = folder.map { $0.hasSuffix("/") ? $0 : $0 + "/" } ?? ""
        let known = sources.withLock { Array($0.files.keys) }
        var onDisk: [String] = []
        if folder.map({ FileSystem.kind(of: $0) == .directory }) ?? true {
            onDisk = (try? loader.mappingFiles()) ?? []
        }
        return Set(known + onDisk).filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// Takes a mapping out of wherever it is. With `keepingOut`, taking it out of a file is
    /// recorded as an override, so re-reading the file for another reason does not bring it
    /// back.
    @discardableResult
    static func removeStub(id: String, from state: inout Sources, keepingOut: Bool) -> Bool {
        var removed = false
        for (file, stubs) in state.files where stubs.contains(where: { $0.mapping.id == id }) {
            state.files[file] = stubs.filter { $0.mapping.id != id }
            if keepingOut { state.overrides[file, default: [:]][id] = .removed }
            removed = true
        }
        let before = state.admin.count + state.code.count
        state.admin.removeAll { $0.mapping.id == id }
        state.code.removeAll { $0.mapping.id == id }
        return removed || before != state.admin.count + state.code.count
    }

    static func replace(id: String, with stub: CompiledStub, in state: inout Sources) {
        for (file, stubs) in state.files {
            if let index = stubs.firstIndex(where: { $0.mapping.id == id }) { state.files[file]?[index] = stub }
        }
        if let index = state.admin.firstIndex(where: { $0.mapping.id == id }) { state.admin[index] = stub }
        if let index = state.code.firstIndex(where: { $0.mapping.id == id }) { state.code[index] = stub }
    }
}
