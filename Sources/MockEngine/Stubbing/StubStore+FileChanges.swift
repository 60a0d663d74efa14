import Platform
import StubFormat

// Admin changes that write or remove mapping files: each prepared under the store's lock, the
// file written outside it, then published under it (see ``StubStore``).
extension StubStore {
    /// Adds a persistent mapping and writes it to its own file in `mappings/` (atomically):
    /// both or neither. Only once the file is written does the mapping serve (as that file's),
    /// so a failed write leaves the server as it was.
    func addPersisting(_ mapping: StubMapping) -> Result<CompiledStub, MappingChangeError> {
        guard let writer else { return .failure(.fileNotChanged(path: "", reason: "no stub folder")) }
        let path = writer.ownFile(of: mapping)
        let prepared = sources.withLock { state -> Result<CompiledStub, MappingChangeError> in
            if let busy = Self.busy(path, ids: [mapping.id], in: state) { return .failure(busy) }
            state.sequence += 1
            let compiled = compiler.compile(mapping, sequence: state.sequence, origin: .file(path), file: path)
            guard let stub = compiled.stub else { return .failure(.invalid(compiled.problems)) }
            state.writing[path] = [mapping.id]
            return .success(stub)
        }
        guard case .success(let stub) = prepared else { return prepared }
        let written = change(path) { () throws(StubWriteError) in try writer.writeMappings([stub.mapping], to: path) }
        return written.map { _ in
            sources.withLock { state in
                state.writing[path] = nil
                Self.removeStub(id: mapping.id, from: &state, keepingOut: true)
                Self.adopt(stub, asFile: path, in: &state)
                publish(state)
            }
            return stub
        }
    }

    /// Makes a prepared file change outside the lock; on failure, takes the file's mark off.
    /// What the change means for the store is published by the caller, once it succeeded.
    private func change(
        _ path: String, _ operation: () throws(StubWriteError) -> Void
    ) -> Result<Void, MappingChangeError> {
        do {
            try operation()
            return .success(())
        } catch {
            sources.withLock { $0.writing[path] = nil }
            return .failure(.fileNotChanged(path: path, reason: error.pathAndReason.reason))
        }
    }

    /// Why a change to `path` or to these mappings is refused now: another change to them is
    /// being written (it would race it on the disk); nil when none is.
    private static func busy(_ path: String, ids: [String], in state: Sources) -> MappingChangeError? {
        let taken = state.writing[path] != nil || state.writing.values.contains { !Set($0).isDisjoint(with: ids) }
        return taken ? .fileNotChanged(path: path, reason: "another change to it is being written") : nil
    }

    /// Counts a stub as the mapping file `path`'s (the file was just written with it).
    private static func adopt(_ stub: CompiledStub, asFile path: String, in state: inout Sources) {
        state.overrides[path]?[stub.mapping.id] = nil
        if state.overrides[path]?.isEmpty == true { state.overrides[path] = nil }
        state.files[path, default: []].append(stub)
    }

    /// What an update does, as prepared under the lock.
    private enum UpdatePlan {
        /// Done in memory (or refused): the result.
        case done(Result<CompiledStub, MappingChangeError>?)
        /// Write the stub's mapping to `path`, then publish it as that file's (`ownFile`: an
        /// admin mapping moving to a file of its own) or in place.
        case write(CompiledStub, path: String, ownFile: Bool)
    }

    /// Replaces the mapping with this id, keeping where it came from; nil when there is none.
    /// The new mapping is persistent when it says so or, saying nothing, when the old one was.
    /// A persistent file mapping alone in its file has the file rewritten (atomically; when
    /// that fails nothing changes); another file mapping is replaced in memory, as an override.
    /// An admin mapping that is persistent now is written to its own file first (when that
    /// fails nothing changes) and becomes that file's.
    func update(id: String, with mapping: StubMapping) -> Result<CompiledStub, MappingChangeError>? {
        let plan = sources.withLock { state -> UpdatePlan in
            guard let existing = state.all.first(where: { $0.mapping.id == id }) else { return .done(nil) }
            var mapping = mapping
            mapping.id = id
            if mapping.persistent == nil { mapping.persistent = existing.mapping.persistent }
            let origin = existing.origin
            let file: String
            if case .file(let path) = origin { file = path } else { file = "" }
            if origin == .admin, mapping.persistent == true, let writer {
                let path = writer.ownFile(of: mapping)
                if let busy = Self.busy(path, ids: [id], in: state) { return .done(.failure(busy)) }
                let compiled = compiler.compile(mapping, sequence: existing.sequence, origin: .file(path), file: path)
                guard let stub = compiled.stub else { return .done(.failure(.invalid(compiled.problems))) }
                state.writing[path] = [id]
                return .write(stub, path: path, ownFile: true)
            }
            let compiled = compiler.compile(mapping, sequence: existing.sequence, origin: origin, file: file)
            guard let stub = compiled.stub else { return .done(.failure(.invalid(compiled.problems))) }
            if !file.isEmpty {
                if writesBack(mapping, in: file) {
                    if let busy = Self.busy(file, ids: [id], in: state) { return .done(.failure(busy)) }
                    state.writing[file] = [id]
                    return .write(stub, path: file, ownFile: false)
                }
                state.overrides[file, default: [:]][id] = .replaced(mapping)
            }
            Self.replace(id: id, with: stub, in: &state)
            publish(state)
            return .done(.success(stub))
        }
        guard case .write(let stub, let path, let ownFile) = plan, let writer else {
            if case .done(let result) = plan { return result }
            return nil
        }
        let written = change(path) { () throws(StubWriteError) in try writer.writeMappings([stub.mapping], to: path) }
        return written.map { _ in
            sources.withLock { state in
                state.writing[path] = nil
                if ownFile {
                    Self.removeStub(id: id, from: &state, keepingOut: false)
                    Self.adopt(stub, asFile: path, in: &state)
                } else {
                    state.overrides[path]?[id] = nil
                    Self.replace(id: id, with: stub, in: &state)
                }
                publish(state)
            }
            return stub
        }
    }

    /// Deletes the mapping with this id for the admin API; false when there is none. A
    /// persistent file mapping alone in its file has the file removed (when that fails
    /// nothing changes); another file mapping is removed in memory, as an override.
    func delete(id: String) throws(MappingChangeError) -> Bool {
        try delete(ids: [id]) == 1
    }

    /// Removes the mappings with these ids (ids no mapping has are skipped) and publishes the
    /// new index once, not once per mapping; returns how many were removed. When a file cannot
    /// be removed, those before it stay removed and the error is thrown.
    @discardableResult
    func delete(ids: [String]) throws(MappingChangeError) -> Int {
        // Under the lock: which mappings go, and which files with them (marked as changing).
        let (plan, refusal) = sources.withLock { state -> ([(id: String, file: String?)], MappingChangeError?) in
            var plan: [(id: String, file: String?)] = []
            for id in ids {
                guard let existing = state.all.first(where: { $0.mapping.id == id }) else { continue }
                if case .file(let file) = existing.origin, writesBack(existing.mapping, in: file) {
                    if let busy = Self.busy(file, ids: [id], in: state) { return (plan, busy) }
                    state.writing[file] = [id]
                    plan.append((id, file))
                } else {
                    plan.append((id, nil))
                }
            }
            return (plan, nil)
        }
        // Outside it: the files, in order, up to the first that cannot be removed.
        var done = plan.count
        var failure = refusal
        for (index, step) in plan.enumerated() {
            guard let file = step.file, let writer else { continue }
            if case .failure(let error) = change(
                file, { () throws(StubWriteError) in try writer.removeMappingFile(file) })
            {
                done = index
                failure = error
                break
            }
        }
        // Under it again: what was removed goes, published once.
        let removed = sources.withLock { state -> Int in
            for step in plan { if let file = step.file { state.writing[file] = nil } }
            var removed = 0
            for step in plan.prefix(done) {
                if let file = step.file {
                    state.files[file] = nil
                    state.overrides[file] = nil
                }
                if Self.removeStub(id: step.id, from: &state, keepingOut: true) || step.file != nil { removed += 1 }
            }
            if removed > 0 { publish(state) }
            return removed
        }
        if let failure { throw failure }
        return removed
    }

    /// Whether an admin change to this file mapping goes to its file: it is persistent and
    /// the file holds it alone.
    private func writesBack(_ mapping: StubMapping, in file: String) -> Bool {
        guard mapping.persistent == true, let writer else { return false }
        return writer.holdsOneMapping(file)
    }

    /// Saves an admin mapping to a file of its own and, once written, counts it as that file's;
    /// returns the path. The file is written outside the lock; a reload it triggers meanwhile
    /// takes the mapping as the file's own, not as a duplicate (it is marked as being written).
    func save(_ mapping: StubMapping) throws(MappingChangeError) -> String {
        guard let writer else { throw .fileNotChanged(path: "", reason: "no stub folder") }
        let path = writer.ownFile(of: mapping)
        let refusal = sources.withLock { state -> MappingChangeError? in
            if let busy = Self.busy(path, ids: [mapping.id], in: state) { return busy }
            state.writing[path] = [mapping.id]
            return nil
        }
        if let refusal { throw refusal }
        let written = change(path) { () throws(StubWriteError) in try writer.writeMappings([mapping], to: path) }
        if case .failure(let error) = written { throw error }
        sources.withLock { state in
            state.writing[path] = nil
            guard let stub = state.admin.first(where: { $0.mapping.id == mapping.id }) else { return }
            let moved =
                compiler.compile(stub.mapping, sequence: stub.sequence, origin: .file(path), file: path).stub ?? stub
            // Out of the admin mappings, and out of the file's if a reload read it meanwhile.
            Self.removeStub(id: mapping.id, from: &state, keepingOut: false)
            Self.adopt(moved, asFile: path, in: &state)
            publish(state)
        }
        return path
    }

    /// Whether the store's lock is free now (taken and let go at once when it is), for tests
    /// that check no file is written under it.
    func isLockFree() -> Bool {
        sources.withLockIfAvailable { _ in true } ?? false
    }
}
