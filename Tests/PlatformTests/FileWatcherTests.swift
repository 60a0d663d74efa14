import Dispatch
import TestSupport
import Testing

@testable import Platform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file watchers: the polling watcher's snapshots as values, and both watchers live.
@Suite struct FileWatcherTests {
    static let kinds: [FileWatcherKind] = {
        #if os(Linux)
        [.inotify, .polling]
        #else
        [.polling]
        #endif
    }()

    private func write(_ path: String, _ text: String) throws {
        try FileSystem.createDirectory(FileSystem.directory(of: path))
        try FileSystem.writeAtomically(Array(text.utf8), to: path)
    }

    @Test func snapshotsTellWhatWasAddedChangedAndRemoved() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let root = folder.path
        try write(root + "/a.json", "one")
        try write(root + "/sub/b.json", "two")
        try write(root + "/same.json", "same")
        try write(root + "/.hidden", "x")
        let before = FileTreeSnapshot(directories: [root])
        #expect(before.entries.count == 4)  // a, same, sub, sub/b; not .hidden

        try write(root + "/a.json", "one more")
        try write(root + "/same.json", "SAME")  // same size: a new inode (written by rename)
        try FileSystem.remove(root + "/sub/b.json")
        try write(root + "/new/c.json", "three")
        try write(root + "/.hidden", "y")
        let after = FileTreeSnapshot(directories: [root])
        #expect(
            after.changes(since: before) == [
                root + "/a.json", root + "/new", root + "/new/c.json", root + "/same.json", root + "/sub/b.json",
            ])
        #expect(after.changes(since: after).isEmpty)
    }

    @Test func aFileIsReportedOnceTwoScansAgree() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let root = folder.path
        try write(root + "/a.json", "{}")
        let reported = FileTreeSnapshot(directories: [root])
        try write(root + "/a.json", "{\"half")
        let previous = FileTreeSnapshot(directories: [root])
        try write(root + "/a.json", "{\"half\": \"written\"}")
        let writing = FileTreeSnapshot(directories: [root])
        #expect(writing.settledChanges(since: reported, previous: previous).isEmpty)
        let still = FileTreeSnapshot(directories: [root])
        #expect(still.settledChanges(since: reported, previous: writing) == [root + "/a.json"])
        var adopted = reported
        adopted.adopt([root + "/a.json"], from: still)
        #expect(still.changes(since: adopted).isEmpty)
    }

    @Test func scansAreBoundedAndLinkLoopsEnd() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let root = folder.path
        for index in 0..<5 { try write(root + "/\(index).json", "x") }
        #expect(FileTreeSnapshot(directories: [root], maxEntries: 3).truncated)
        #expect(!FileTreeSnapshot(directories: [root], maxEntries: 5).truncated)
        try write(root + "/d1/d2/d3/deep.json", "x")
        #expect(FileTreeSnapshot(directories: [root], maxDepth: 2).truncated)
        #expect(symlink(root, root + "/d1/loop") == 0)
        let looped = FileTreeSnapshot(directories: [root])
        #expect(!looped.truncated)
        #expect(looped.entries[root + "/d1/loop"]?.isDirectory == true)
        #expect(looped.entries[root + "/d1/loop/0.json"] == nil)
    }

    @Test func aTreePastTheBoundIsRefusedAtStart() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        for index in 0..<3 { try write(folder.path + "/\(index).json", "x") }
        let watcher = PollingFileWatcher(directories: [folder.path])
        watcher.entryLimit = 2
        #expect(throws: FileWatcherError.self) { try watcher.start { _ in } }
    }

    @Test(arguments: kinds) func aWrittenFileIsReported(kind: FileWatcherKind) throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try write(folder.path + "/mappings/old.json", "{}")
        let watcher: any FileWatcher =
            kind == .polling
            ? PollingFileWatcher(directories: [folder.path], interval: .milliseconds(10))
            : try kind.makeWatcher(directories: [folder.path])
        let seen = Locked<[String]>([])
        let arrived = DispatchSemaphore(value: 0)
        let target = folder.path + "/mappings/new.json"
        try watcher.start { paths in
            seen.withLock { $0 += paths }
            if paths.contains(target) { arrived.signal() }
        }
        defer { watcher.stop() }
        try write(target, #"{"request": {}}"#)
        #expect(arrived.wait(timeout: .now() + 10) == .success)
        #expect(seen.withLock { $0.contains(target) })
        #expect(!seen.withLock { $0.contains(folder.path + "/mappings/old.json") })
    }

    /// A single file is reported by the path it was given as, written or replaced; the other
    /// files of its folder are not watched (the one written before it never shows up).
    @Test(arguments: kinds) func aSingleFileIsReportedAndNotItsNeighbours(kind: FileWatcherKind) throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let target = folder.path + "/pets.postman_collection.json"
        let neighbour = folder.path + "/other.json"
        try write(target, "{}")
        let watcher: any FileWatcher =
            kind == .polling
            ? PollingFileWatcher(directories: [], files: [target], interval: .milliseconds(10))
            : try kind.makeWatcher(directories: [], files: [target])
        let seen = Locked<[String]>([])
        let arrived = DispatchSemaphore(value: 0)
        try watcher.start { paths in
            seen.withLock { $0 += paths }
            if paths.contains(target) { arrived.signal() }
        }
        defer { watcher.stop() }
        try write(neighbour, "{}")
        try write(target, #"{"item": []}"#)
        #expect(arrived.wait(timeout: .now() + 10) == .success)
        #expect(seen.withLock { $0.allSatisfy { $0 == target } })
        // Removed, then written again.
        try FileSystem.remove(target)
        #expect(arrived.wait(timeout: .now() + 10) == .success)
        try write(target, "{}")
        #expect(arrived.wait(timeout: .now() + 10) == .success)
        #expect(!seen.withLock { $0.contains(neighbour) })
    }

    @Test func snapshotsOfSingleFilesTellChangesAndRemovals() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let file = folder.path + "/c.json"
        let missing = folder.path + "/missing.json"
        try write(file, "{}")
        let before = FileTreeSnapshot(directories: [], files: [file, missing, folder.path])
        #expect(before.entries.keys.sorted() == [file])
        try write(file, #"{"longer": true}"#)
        #expect(FileTreeSnapshot(directories: [], files: [file]).changes(since: before) == [file])
        try FileSystem.remove(file)
        #expect(FileTreeSnapshot(directories: [], files: [file]).changes(since: before) == [file])
    }

    @Test func theEnvironmentChoosesTheWatcherForAutomaticOnly() throws {
        #expect(try FileWatcherKind.automatic.resolved { _ in "polling" } == .polling)
        #expect(try FileWatcherKind.polling.resolved { _ in "inotify" } == .polling)
        #expect(throws: FileWatcherError.self) { try FileWatcherKind.automatic.resolved { _ in "fsevents" } }
        do {
            _ = try FileWatcherKind.automatic.resolved { _ in "fsevents" }
        } catch {
            #expect(error.reason == "Invalid PETKIT_WATCHER: expected 'inotify' or 'polling', found 'fsevents'")
        }
    }
}
