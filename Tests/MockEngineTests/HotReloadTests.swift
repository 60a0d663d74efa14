import MockEngine
import Platform
import StubServerKit
import TestSupport
import Testing

/// `--watch`: edits reload, broken edits keep the last good version, fixes reload again.
/// Every wait is on the server's reload event, bounded by a timeout; nothing sleeps. Each
/// test runs over every watcher of the system (inotify and polling on Linux).
@Suite struct HotReloadTests {
    static let watchers: [FileWatcherKind] = {
        #if os(Linux)
        [.inotify, .polling]
        #else
        [.polling]
        #endif
    }()

    @Test(arguments: watchers) func editsBreakagesFixesAndDeletions(watcher: FileWatcherKind) async throws {
        let stubs = try TemporaryStubs()
        stubs.write("mappings/a.json", TemporaryStubs.mapping("/a", body: "one"))
        stubs.write("__files/body.txt", "file one")
        stubs.write("mappings/f.json", #"{"request": {"url": "/f"}, "response": {"bodyFileName": "body.txt"}}"#)
        let server = try startServer(stubs: stubs.root) {
            $0.watch = true
            $0.watcher = watcher
        }
        defer { server.stop() }
        let file = stubs.root + "/mappings/a.json"
        #expect(try fetch(server.port, "/a").text == "one")

        var events = server.events()
        stubs.write("mappings/a.json", TemporaryStubs.mapping("/a", body: "two"))
        let reloaded = try await firstEvent(events) { $0.file == file }
        guard case .reloaded(_, 1, _) = reloaded else { throw FixtureError(description: "got \(reloaded)") }
        #expect(try fetch(server.port, "/a").text == "two")

        events = server.events()
        stubs.write("mappings/a.json", #"{"request": {"url": "/a"}, "response": {"status": "broken"}}"#)
        let failed = try await firstEvent(events) { $0.file == file }
        guard case .reloadFailed(_, let problems, true) = failed else {
            throw FixtureError(description: "got \(failed)")
        }
        #expect(problems.first?.path == "$.response.status")
        #expect(failed.description.contains("last good version keeps serving"))
        #expect(try fetch(server.port, "/a").text == "two")

        events = server.events()
        stubs.write("mappings/a.json", TemporaryStubs.mapping("/a", body: "three"))
        _ = try await firstEvent(events) { event in
            if case .reloaded(file, _, _) = event { return true }
            return false
        }
        #expect(try fetch(server.port, "/a").text == "three")

        events = server.events()
        stubs.write("mappings/sub/new.json", TemporaryStubs.mapping("/new", body: "new"))
        _ = try await firstEvent(events) { $0.file?.hasSuffix("/new.json") == true }
        #expect(try fetch(server.port, "/new").text == "new")

        events = server.events()
        stubs.write("__files/body.txt", "file two")
        _ = try await firstEvent(events) { $0.file?.hasSuffix("/f.json") == true }
        #expect(try fetch(server.port, "/f").text == "file two")

        events = server.events()
        stubs.remove("mappings/a.json")
        let removed = try await firstEvent(events) { $0.file == file }
        guard case .removed(_, 1) = removed else { throw FixtureError(description: "got \(removed)") }
        #expect(try fetch(server.port, "/a").status == 404)
    }

    @Test(arguments: watchers) func aNewBrokenFileServesNothingAndSaysWhy(watcher: FileWatcherKind) async throws {
        let stubs = try TemporaryStubs()
        let server = try startServer(stubs: stubs.root) {
            $0.watch = true
            $0.watcher = watcher
        }
        defer { server.stop() }
        let events = server.events()
        stubs.write("mappings/bad.json", "{ not json")
        let event = try await firstEvent(events) { $0.file?.hasSuffix("bad.json") == true }
        guard case .neverServed(_, let problems) = event else {
            throw FixtureError(description: "got \(event)")
        }
        #expect(problems.first?.kind == .invalidJSON)
        #expect(server.admin.mappings().isEmpty)
    }

    /// A file that had errors from the start never served: a broken edit says so, and does not
    /// speak of a last good version it never had.
    @Test(arguments: watchers) func aFileThatNeverLoadedIsNotSaidToKeepServing(watcher: FileWatcherKind) async throws {
        let stubs = try TemporaryStubs()
        stubs.write("mappings/bad.json", #"{"request": {"url": "/bad"}, "response": {"status": "broken"}}"#)
        let server = try startServer(stubs: stubs.root) {
            $0.watch = true
            $0.watcher = watcher
        }
        defer { server.stop() }
        let events = server.events()
        stubs.write("mappings/bad.json", #"{"request": {"url": "/bad"}, "response": {"status": "still broken"}}"#)
        let event = try await firstEvent(events) { $0.file?.hasSuffix("bad.json") == true }
        #expect(!event.description.contains("last good version"), "\(event)")
        #expect(event.description.contains("never served"), "\(event)")
        #expect(try fetch(server.port, "/bad").status == 404)
    }
}
