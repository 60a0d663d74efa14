import Synchronization

/// Every mapping the server knows, by where it came from (files, the admin API, Swift code),
/// and the indexed snapshot requests are served from. Writers rebuild the index and swap it
/// in; a request takes the current snapshot with one short lock and never waits for a
/// rebuild.
final class StubStore: Sendable {
    /// What requests are served from: the index and the server-wide variant.
    struct Snapshot: Sendable {
        let index: StubIndex
        let serverVariant: Variant?
    }

    private struct Sources {
        var files: [String: [CompiledStub]] = [:]
        var admin: [CompiledStub] = []
        var code: [CompiledStub] = []
        var codeMappings: [StubMapping] = []
        var sequence = 0

        var all: [CompiledStub] { files.values.flatMap { $0 } + admin + code }

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
    let loader: StubLoader?
    let compiler: StubCompiler
    private let sources = Mutex(Sources())
    private let current: Mutex<Snapshot>

    /// Loads the root (when there is one) and the code mappings; returns the problems found.
    init(loader: StubLoader?, codeMappings: [StubMapping], serverVariant: Variant?) throws(StubLoadError) {
        self.loader = loader
        compiler = StubCompiler(filesRoot: loader?.filesDirectory)
        current = Mutex(Snapshot(index: StubIndex([]), serverVariant: serverVariant))
        var state = Sources()
        state.codeMappings = codeMappings
        let problems = try Self.loadEverything(into: &state, loader: loader, compiler: compiler)
        self.initialProblems = problems
        let stubs = state.all
        sources.withLock { $0 = state }
        current.withLock { $0 = Snapshot(index: StubIndex(stubs), serverVariant: serverVariant) }
    }

    /// The problems the first load found.
    let initialProblems: [StubProblem]

    private static func loadEverything(
        into state: inout Sources, loader: StubLoader?, compiler: StubCompiler
    ) throws(StubLoadError) -> [StubProblem] {
        var problems: [StubProblem] = []
        state.files = [:]
        state.code = []
        var ids: [String: String] = [:]
        if let loader {
            for file in try loader.loadAll(compiler: compiler, sequence: &state.sequence, ids: &ids) {
                state.files[file.path] = file.stubs
                problems += file.problems
            }
        }
        for admin in state.admin { ids[admin.mapping.id] = "a mapping added through the admin API" }
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

    /// The snapshot to serve a request from.
    func snapshot() -> Snapshot {
        current.withLock { $0 }
    }

    /// Sets (or clears) the server-wide variant.
    func setServerVariant(_ variant: Variant?) {
        current.withLock { $0 = Snapshot(index: $0.index, serverVariant: variant) }
    }

    private func publish(_ state: Sources) {
        let index = StubIndex(state.all)
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
            Self.removeStub(id: mapping.id, from: &state)
            state.admin.append(stub)
            publish(state)
            return .success(stub)
        }
    }

    /// Replaces the mapping with this id, keeping where it came from; nil when there is none.
    func update(id: String, with mapping: StubMapping) -> Result<CompiledStub, StubLoadError>? {
        sources.withLock { state -> Result<CompiledStub, StubLoadError>? in
            guard let existing = state.all.first(where: { $0.mapping.id == id }) else { return nil }
            var mapping = mapping
            mapping.id = id
            let origin = existing.origin
            let file: String
            if case .file(let path) = origin { file = path } else { file = "" }
            let compiled = compiler.compile(mapping, sequence: existing.sequence, origin: origin, file: file)
            guard let stub = compiled.stub else { return .failure(.invalidStubs(compiled.problems)) }
            Self.replace(id: id, with: stub, in: &state)
            publish(state)
            return .success(stub)
        }
    }

    /// Removes the mapping with this id (from memory only); returns whether there was one.
    func remove(id: String) -> Bool {
        sources.withLock { state in
            let removed = Self.removeStub(id: id, from: &state)
            if removed { publish(state) }
            return removed
        }
    }

    /// Removes every mapping (from memory only).
    func removeAll() {
        sources.withLock { state in
            state.files = state.files.mapValues { _ in [] }
            state.admin = []
            state.code = []
            publish(state)
        }
    }

    /// Goes back to what the files and code define: admin mappings dropped, files re-read.
    func reset() throws(StubLoadError) -> [StubProblem] {
        try sources.withLock { (state) throws(StubLoadError) -> [StubProblem] in
            state.admin = []
            let problems = try Self.loadEverything(into: &state, loader: loader, compiler: compiler)
            publish(state)
            return problems
        }
    }

    /// Writes an admin mapping to a file with `write` and, once written, counts it as that
    /// file's. Both happen under the store's lock, so a reload the write triggers sees the
    /// mapping as the file's own, not as a duplicate.
    func persist(id: String, to path: String, write: () throws(FileSystemError) -> Void) throws(FileSystemError) {
        try sources.withLock { (state) throws(FileSystemError) -> Void in
            try write()
            guard let index = state.admin.firstIndex(where: { $0.mapping.id == id }) else { return }
            let stub = state.admin.remove(at: index)
            let moved =
                compiler.compile(stub.mapping, sequence: stub.sequence, origin: .file(path), file: path).stub ?? stub
            state.files[path, default: []].append(moved)
            publish(state)
        }
    }

    /// The mappings added through the admin API and not saved yet.
    func adminMappings() -> [StubMapping] {
        sources.withLock { $0.admin.map(\.mapping) }
    }

    /// Re-reads one mapping file after it changed. A version with errors does not replace a
    /// version already serving; a deleted file's mappings go away.
    func reloadFile(_ path: String) -> StubServerEvent? {
        guard let loader else { return nil }
        return sources.withLock { state -> StubServerEvent? in
            guard FileSystem.kind(of: path) == .file else {
                guard let previous = state.files.removeValue(forKey: path) else { return nil }
                publish(state)
                return .removed(file: path, mappings: previous.count)
            }
            var ids = state.ids(excludingFile: path)
            let loaded = loader.loadFile(path, compiler: compiler, sequence: &state.sequence, ids: &ids)
            if loaded.hasErrors, state.files[path] != nil {
                return .reloadFailed(file: path, problems: loaded.problems, keptPrevious: true)
            }
            state.files[path] = loaded.stubs
            publish(state)
            if loaded.hasErrors { return .reloadFailed(file: path, problems: loaded.problems, keptPrevious: false) }
            return .reloaded(file: path, mappings: loaded.stubs.count, problems: loaded.problems)
        }
    }

    /// Re-reads every mapping file (after `__files/` changed) and picks up new ones.
    func reloadAllFiles() -> [StubServerEvent] {
        guard let loader else { return [] }
        let known = sources.withLock { Array($0.files.keys) }
        let onDisk = (try? loader.mappingFiles()) ?? []
        return Set(known + onDisk).sorted().compactMap { reloadFile($0) }
    }

    @discardableResult
    private static func removeStub(id: String, from state: inout Sources) -> Bool {
        var removed = false
        for (file, stubs) in state.files where stubs.contains(where: { $0.mapping.id == id }) {
            state.files[file] = stubs.filter { $0.mapping.id != id }
            removed = true
        }
        let before = state.admin.count + state.code.count
        state.admin.removeAll { $0.mapping.id == id }
        state.code.removeAll { $0.mapping.id == id }
        return removed || before != state.admin.count + state.code.count
    }

    private static func replace(id: String, with stub: CompiledStub, in state: inout Sources) {
        for (file, stubs) in state.files {
            if let index = stubs.firstIndex(where: { $0.mapping.id == id }) { state.files[file]?[index] = stub }
        }
        if let index = state.admin.firstIndex(where: { $0.mapping.id == id }) { state.admin[index] = stub }
        if let index = state.code.firstIndex(where: { $0.mapping.id == id }) { state.code[index] = stub }
    }
}
