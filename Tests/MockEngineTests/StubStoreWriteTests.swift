import Platform
import StubFormat
import Testing

@testable import MockEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The store writes mapping files outside its lock: each change is prepared under it, the file
/// written through the writer's file operations with the lock free, then published. A seam in
/// place of the disk checks, at every write and removal, that the lock is free (a try-lock, on
/// the writing thread itself: no other thread, no wait) and that nothing is published yet.
@Suite struct StubStoreWriteTests {
    /// The store under test, given to the seam once it exists, and what the seam saw.
    final class Probe: Sendable {
        /// The store under test, held weakly: the store holds the probe through its file
        /// operations.
        private let storeReference = Locked(StoreReference())
        /// For each write or removal: the path, whether the lock was free, whether the
        /// mapping being written already served.
        let seen = Locked<[(path: String, lockFree: Bool, served: Bool)]>([])
        /// The id whose serving is checked at each write.
        let watched = Locked<String?>(nil)
        /// Paths whose write fails.
        let failing = Locked<Set<String>>([])
        /// Reload the file just written, as a watcher may between the write and the publish.
        let reloadsWritten = Locked(false)
        let reloadEvents = Locked<[StubServerEvent]>([])

        var store: StubStore? {
            get { storeReference.withLock { $0.store } }
            set { storeReference.withLock { $0.store = newValue } }
        }

        struct StoreReference {
            weak var store: StubStore?
        }

        func record(_ path: String) throws(FileSystemError) {
            guard let store else { return }
            let served = watched.withLock { $0 }.map { store.stub(id: $0) != nil } ?? false
            seen.withLock { $0.append((path, store.isLockFree(), served)) }
            if failing.withLock({ $0.contains(path) }) { throw FileSystemError(path: path, call: "write", code: EIO) }
        }

        var operations: StubFileOperations {
            StubFileOperations(
                write: { [self] (bytes, path) throws(FileSystemError) in
                    try record(path)
                    try FileSystem.writeAtomically(bytes, to: path)
                    // Only with the lock free: a reload under it would wait for ever.
                    guard reloadsWritten.withLock({ $0 }), let store, store.isLockFree()
                    else { return }
                    if let event = store.reloadFile(path) { reloadEvents.withLock { $0.append(event) } }
                },
                remove: { [self] (path) throws(FileSystemError) in
                    try record(path)
                    try FileSystem.remove(path)
                })
        }
    }

    static func mapping(_ id: String, url: String, body: String, persistent: Bool = true) -> StubMapping {
        StubMapping(
            id: id, name: "p", request: RequestPattern(method: .get, url: .url(url)),
            response: ResponseDefinition(body: .text(body)), persistent: persistent)
    }

    static func makeStore(_ folder: TemporaryStubs, probe: Probe) throws -> StubStore {
        let store = try StubStore(
            loader: StubLoader(root: folder.root), codeMappings: [], serverVariant: nil,
            fileOperations: probe.operations)
        probe.store = store
        return store
    }

    @Test func everyAdminWriteAndRemovalHappensWithTheLockFreeAndPublishesAfter() throws {
        let folder = try TemporaryStubs()
        let probe = Probe()
        let store = try Self.makeStore(folder, probe: probe)
        let id = "0000000c-0000-4000-8000-00000000000c"
        probe.watched.withLock { $0 = id }

        let added = store.addPersisting(Self.mapping(id, url: "/p", body: "one"))
        let stub = try added.get()
        guard case .file(let path) = stub.origin else {
            Issue.record("a persistent mapping serves as its file's, not \(stub.origin)")
            return
        }
        #expect(store.stub(id: id) != nil, "published once written")
        _ = try #require(store.update(id: id, with: Self.mapping(id, url: "/p", body: "two"))).get()
        #expect(try FileSystem.read(path) == StubMapping.fileBytes([Self.mapping(id, url: "/p", body: "two")]))

        let savedID = "0000000d-0000-4000-8000-00000000000d"
        _ = try store.add(Self.mapping(savedID, url: "/s", body: "s", persistent: false)).get()
        let saved = try store.save(Self.mapping(savedID, url: "/s", body: "s", persistent: false))
        #expect(FileSystem.kind(of: saved) == .file)

        #expect(try store.delete(id: id))
        #expect(FileSystem.kind(of: path) == nil)

        let seen = probe.seen.withLock { $0 }
        #expect(seen.map(\.path) == [path, path, saved, path])
        #expect(seen.allSatisfy { $0.lockFree }, "no file is written or removed under the store's lock")
        #expect(seen.first?.served == false, "the new mapping serves only once its file is written")
    }

    @Test func aWriteThatFailsChangesNothingAndLeavesNoMark() throws {
        let folder = try TemporaryStubs()
        let probe = Probe()
        let store = try Self.makeStore(folder, probe: probe)
        let mapping = Self.mapping("0000000e-0000-4000-8000-00000000000e", url: "/f", body: "f")
        let path = StubFolderWriter(folder: StubFolder(root: folder.root)).ownFile(of: mapping)
        probe.failing.withLock { $0 = [path] }
        let failed = store.addPersisting(mapping)
        guard case .failure(.fileNotChanged(let failedPath, _)) = failed else {
            Issue.record("expected the write to fail, got \(failed)")
            return
        }
        #expect(failedPath == path)
        #expect(store.stub(id: mapping.id) == nil && store.snapshot().index.all.isEmpty)
        #expect(FileSystem.kind(of: path) == nil)
        probe.failing.withLock { $0 = [] }
        _ = try store.addPersisting(mapping).get()
        #expect(store.stub(id: mapping.id) != nil, "the failed write left the file free to write")
    }

    @Test func aReloadBetweenTheWriteAndThePublishTakesTheMappingAsTheFilesOwn() throws {
        let folder = try TemporaryStubs()
        let probe = Probe()
        let store = try Self.makeStore(folder, probe: probe)
        probe.reloadsWritten.withLock { $0 = true }
        let id = "0000000f-0000-4000-8000-00000000000f"
        _ = try store.add(Self.mapping(id, url: "/r", body: "r", persistent: false)).get()
        let path = try store.save(Self.mapping(id, url: "/r", body: "r", persistent: false))
        let events = probe.reloadEvents.withLock { $0 }
        guard case .reloaded(let file, 1, let problems)? = events.first else {
            Issue.record("expected a clean reload, got \(events)")
            return
        }
        #expect(file == path && problems.isEmpty, "no duplicate id: the mapping is being written to this file")
        #expect(store.snapshot().index.all.filter { $0.mapping.id == id }.count == 1)
        #expect(store.adminMappings().isEmpty, "saved: it is the file's now")
    }
}
