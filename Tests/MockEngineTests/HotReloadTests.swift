import MockEngine
import Platform
import StubFormat
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

/// `--watch` with a Postman collection: a changed collection or environment file is read
/// again and its stubs replace the collection's previous ones; one that cannot be read keeps
/// them serving. Each wait is on the server's reload event, through the real watchers.
@Suite struct PostmanHotReloadTests {
    static func collection(_ body: String) -> String {
        #"""
        {"info": {"name": "p", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
         "item": [{"name": "Pets", "request": {"method": "GET", "url": "/pets"},
                   "response": [{"name": "ok", "code": 200, "header": [], "body": "\#(body)"}]}]}
        """#
    }

    static func environment(_ name: String) -> String {
        #"{"values": [{"key": "name", "value": "\#(name)", "enabled": true}]}"#
    }

    @Test(arguments: HotReloadTests.watchers) func aChangedCollectionOrEnvironmentReloads(
        watcher: FileWatcherKind
    ) async throws {
        let folder = try TemporaryStubs()
        folder.write("pets.postman_collection.json", Self.collection("one {{name}}"))
        folder.write("local.postman_environment.json", Self.environment("Rex"))
        let file = folder.root + "/pets.postman_collection.json"
        let environmentFile = folder.root + "/local.postman_environment.json"
        let source = WatchedMappings(files: [file, environmentFile]) {
            do throws(PostmanCollectionError) {
                let collection = try PostmanCollection(bytes: try Self.bytes(file), source: file)
                let environment = try PostmanEnvironment(
                    bytes: try Self.bytes(environmentFile), source: environmentFile)
                let set = collection.stubs(environment: environment)
                return .success((set.mappings, set.problems))
            } catch {
                return .failure(error.problem)
            }
        }
        guard case .success(let first) = source.read() else { throw FixtureError(description: "not read") }
        var configuration = StubServerConfiguration(port: 0, eventLoopCount: 1)
        configuration.watch = true
        configuration.watcher = watcher
        let server = try StubServer(stubsDirectory: nil, mappings: first.mappings, configuration: configuration)
        server.watchMappings(source)
        try server.start()
        defer { server.stop() }
        #expect(try fetch(server.port, "/pets").text == "one Rex")

        var events = server.events()
        folder.write("pets.postman_collection.json", Self.collection("two {{name}}"))
        let reloaded = try await firstEvent(events) { $0.file == file }
        guard case .reloaded(_, 1, _) = reloaded else { throw FixtureError(description: "got \(reloaded)") }
        #expect(try fetch(server.port, "/pets").text == "two Rex")

        events = server.events()
        folder.write("local.postman_environment.json", Self.environment("Tom"))
        _ = try await firstEvent(events) { $0.file == file }
        #expect(try fetch(server.port, "/pets").text == "two Tom")

        events = server.events()
        folder.write("pets.postman_collection.json", "{ not json")
        let failed = try await firstEvent(events) { $0.file == file }
        guard case .reloadFailed(_, let problems, true) = failed else {
            throw FixtureError(description: "got \(failed)")
        }
        #expect(problems.map(\.kind) == [.invalidJSON])
        #expect(failed.description.contains("last good version keeps serving"))
        #expect(try fetch(server.port, "/pets").text == "two Tom")
    }

    static func bytes(_ path: String) throws(PostmanCollectionError) -> [UInt8] {
        do {
            return try FileSystem.read(path)
        } catch {
            throw .unreadable(source: path, reason: "\(error)")
        }
    }
}
