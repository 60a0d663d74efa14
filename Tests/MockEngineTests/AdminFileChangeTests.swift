import JSONKit
import Platform
import TestSupport
import Testing

@testable import MockEngine
@testable import StubFormat
@testable import StubServerKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Admin changes to mappings that came from files, and what a reload does with them: a
/// persistent mapping's file is rewritten or removed (WireMock's rule); a hand-written file's
/// mapping is changed in memory, which outlives reloads of other files and goes when its own
/// file changes or on a mappings reset. Every wait is on a reload event; nothing sleeps.
@Suite struct AdminFileChangeTests {
    static let handWritten = "0000000a-0000-4000-8000-00000000000a"

    @Test func persistentUpdateRewritesTheFileAndDeleteRemovesItForGood() async throws {
        let stubs = try TemporaryStubs()
        stubs.write("mappings/vets.json", TemporaryStubs.mapping("/vets", body: "vets one"))
        let server = try startServer(stubs: stubs.root) { $0.watch = true }
        defer { server.stop() }
        let port = server.port
        let vets = stubs.root + "/mappings/vets.json"
        let created = try fetch(
            port, "POST", "/__admin/mappings",
            body: #"{"name": "kept", "persistent": true, "request": {"url": "/p"}, "response": {"body": "v1"}}"#)
        #expect(created.status == 201)
        let id = try #require(created.json["id"]?.stringValue)
        let file = stubs.root + "/mappings/kept-\(id).json"
        #expect(try JSONValue(parsing: FileSystem.read(file))["response"]?["body"] == "v1")

        let updated = try fetch(
            port, "PUT", "/__admin/mappings/\(id)",
            body: #"{"name": "kept", "request": {"url": "/p"}, "response": {"body": "v2"}}"#)
        #expect(updated.status == 200)
        let rewritten = try JSONValue(parsing: FileSystem.read(file))
        #expect(rewritten["response"]?["body"] == "v2" && rewritten["persistent"] == true)
        #expect(try fetch(port, "/p").text == "v2")

        #expect(try fetch(port, "DELETE", "/__admin/mappings/\(id)").status == 200)
        #expect(FileSystem.kind(of: file) == nil)
        #expect(try fetch(port, "/p").status == 404)

        // `sed -i` on another file: a temporary file, then a rename over the mapping file.
        let events = server.events()
        replace("mappings/vets.json", with: TemporaryStubs.mapping("/vets", body: "vets two"), in: stubs)
        _ = try await firstEvent(events) { $0.file == vets }
        #expect(try fetch(port, "/vets").text == "vets two")
        #expect(try fetch(port, "/p").status == 404)
        #expect(try fetch(port, "POST", "/__admin/mappings/reset").status == 200)
        #expect(try fetch(port, "/p").status == 404)
        #expect(try FileSystem.names(in: stubs.root + "/mappings") == ["vets.json"])
    }

    @Test func aLongPersistentIDIsSavedUnderABoundedFileName() throws {
        let stubs = try TemporaryStubs()
        let server = try makeServer(stubs: stubs.root)
        let id = String(repeating: "a", count: 300)
        let created = try server.answer(
            "POST", "/__admin/mappings",
            body: #"{"id": "\#(id)", "persistent": true, "request": {"url": "/long"}, "response": {"body": "long"}}"#)
        #expect(created.status == 201, "\(created.text)")
        let names = try FileSystem.names(in: stubs.root + "/mappings")
        #expect(names.count == 1 && names.allSatisfy { $0.utf8.count < 128 }, "\(names)")
        #expect(try server.answer("/long").text == "long")
        #expect(try server.answer("POST", "/__admin/mappings/save").status == 200)
        // The file is read back as the same mapping.
        try server.admin.resetMappings()
        #expect(try server.answer("/__admin/mappings/\(id)").status == 200)
    }

    @Test func fileNamesFromIDsAreBoundedStableAndDistinct() {
        func name(_ id: String) -> String {
            StubFolderWriter.fileName(
                for: StubMapping(id: id, request: RequestPattern(), response: ResponseDefinition()))
        }
        let uuid = "5d1a4c52-0000-4000-8000-000000000001"
        #expect(name(uuid) == "mapping-\(uuid).json", "ids that fit keep WireMock's names")
        let long = String(repeating: "x", count: 10_000)
        #expect(name(long).utf8.count <= 160)
        #expect(name(long) == name(long))
        #expect(name(long) != name(long + "y"))
        #expect(name("a/b") != name("ab"), "ids differing only in characters a file name drops")
        #expect(name("../../etc/passwd").hasPrefix("mapping-etcpasswd-"))
    }

    @Test func aPersistentMappingWhoseFileCannotBeWrittenIsNotAdded() throws {
        let stubs = try TemporaryStubs()
        let id = "0000000b-0000-4000-8000-00000000000b"
        // A folder where the mapping's file would go: the write fails.
        let blocked =
            "mappings/"
            + StubFolderWriter.fileName(
                for: StubMapping(id: id, request: RequestPattern(), response: ResponseDefinition()))
        stubs.write(blocked + "/keep.txt", "in the way")
        let server = try makeServer(stubs: stubs.root)
        let created = try server.answer(
            "POST", "/__admin/mappings",
            body: #"{"id": "\#(id)", "persistent": true, "request": {"url": "/p"}, "response": {"body": "p"}}"#)
        #expect(created.status == 500)
        #expect(try server.answer("/__admin/mappings/\(id)").status == 404, "the mapping did not go live")
        #expect(try server.answer("/p").status == 404)
        #expect(try server.answer("POST", "/__admin/mappings/save").status == 200, "nothing left half-added")

        // The same for an admin mapping updated to persistent: the old version stays.
        let plain = try server.answer(
            "POST", "/__admin/mappings",
            body: #"{"id": "\#(id)", "request": {"url": "/p"}, "response": {"body": "old"}}"#)
        #expect(plain.status == 201)
        let updated = try server.answer(
            "PUT", "/__admin/mappings/\(id)",
            body: #"{"persistent": true, "request": {"url": "/p"}, "response": {"body": "new"}}"#)
        #expect(updated.status == 500)
        #expect(try server.answer("/p").text == "old")
        #expect(try server.answer("/__admin/mappings/\(id)").json["persistent"] == nil)
    }

    @Test func handWrittenMappingChangesOutliveOtherReloadsUntilTheirFileChanges() async throws {
        let stubs = try TemporaryStubs()
        let original = TemporaryStubs.mapping("/a", body: "file one", id: Self.handWritten)
        stubs.write("mappings/a.json", original)
        stubs.write("mappings/b.json", TemporaryStubs.mapping("/b", body: "b one"))
        stubs.write("__files/body.txt", "body one")
        stubs.write("mappings/f.json", #"{"request": {"url": "/f"}, "response": {"bodyFileName": "body.txt"}}"#)
        let server = try startServer(stubs: stubs.root) { $0.watch = true }
        defer { server.stop() }
        let port = server.port
        let a = stubs.root + "/mappings/a.json"
        let b = stubs.root + "/mappings/b.json"

        let put = try fetch(
            port, "PUT", "/__admin/mappings/\(Self.handWritten)",
            body: #"{"request": {"url": "/a"}, "response": {"body": "admin"}}"#)
        #expect(put.status == 200)
        #expect(try fetch(port, "/a").text == "admin")
        #expect(String(decoding: try FileSystem.read(a), as: UTF8.self) == original)

        var events = server.events()
        replace("mappings/b.json", with: TemporaryStubs.mapping("/b", body: "b two"), in: stubs)
        _ = try await firstEvent(events) { $0.file == b }
        #expect(try fetch(port, "/b").text == "b two")
        #expect(try fetch(port, "/a").text == "admin")

        // A body file changed: every mapping file is read again, a.json included.
        events = server.events()
        stubs.write("__files/body.txt", "body two")
        _ = try await firstEvent(events) { $0.file == a }
        #expect(try fetch(port, "/f").text == "body two")
        #expect(try fetch(port, "/a").text == "admin")

        #expect(try fetch(port, "DELETE", "/__admin/mappings/\(Self.handWritten)").status == 200)
        #expect(try fetch(port, "/a").status == 404)
        #expect(FileSystem.kind(of: a) == .file)
        events = server.events()
        replace("mappings/b.json", with: TemporaryStubs.mapping("/b", body: "b three"), in: stubs)
        _ = try await firstEvent(events) { $0.file == b }
        #expect(try fetch(port, "/a").status == 404)
        events = server.events()
        stubs.write("__files/body.txt", "body three")
        _ = try await firstEvent(events) { $0.file == a }
        #expect(try fetch(port, "/a").status == 404)

        // Its own file changed: the file has the last word.
        events = server.events()
        stubs.write("mappings/a.json", TemporaryStubs.mapping("/a", body: "file two", id: Self.handWritten))
        _ = try await firstEvent(events) { $0.file == a }
        #expect(try fetch(port, "/a").text == "file two")

        #expect(try fetch(port, "DELETE", "/__admin/mappings/\(Self.handWritten)").status == 200)
        #expect(try fetch(port, "/a").status == 404)
        #expect(try fetch(port, "POST", "/__admin/mappings/reset").status == 200)
        #expect(try fetch(port, "/a").text == "file two")
    }

    @Test func temporaryFilesInMappingsReloadNoOtherFile() async throws {
        let stubs = try TemporaryStubs()
        stubs.write("mappings/a.json", TemporaryStubs.mapping("/a", body: "a"))
        stubs.write("mappings/b.json", TemporaryStubs.mapping("/b", body: "b one"))
        let server = try startServer(stubs: stubs.root) { $0.watch = true }
        defer { server.stop() }
        let b = stubs.root + "/mappings/b.json"
        let seen = SeenFiles()
        let events = server.events()
        stubs.write("mappings/notes.txt", "not a mapping")
        replace("mappings/b.json", with: TemporaryStubs.mapping("/b", body: "b two"), in: stubs)
        _ = try await firstEvent(events) { event in
            seen.add(event.file)
            return event.file == b
        }
        #expect(seen.files == [b])
        #expect(try fetch(server.port, "/b").text == "b two")
    }

    @Test func aPersistentMappingSharingItsFileIsChangedInMemoryOnly() throws {
        let stubs = try TemporaryStubs()
        let text = """
            {"mappings": [
              {"id": "\(Self.handWritten)", "persistent": true, "request": {"url": "/one"}, "response": {"body": "1"}},
              {"request": {"url": "/two"}, "response": {"body": "2"}}
            ]}
            """
        stubs.write("mappings/both.json", text)
        let server = try makeServer(stubs: stubs.root)
        #expect(try server.answer("DELETE", "/__admin/mappings/\(Self.handWritten)").status == 200)
        #expect(try server.answer("/one").status == 404)
        #expect(String(decoding: try FileSystem.read(stubs.root + "/mappings/both.json"), as: UTF8.self) == text)
        try server.admin.resetMappings()
        #expect(try server.answer("/one").text == "1")
    }

    @Test func aPersistentMappingFileThatIsASymbolicLinkIsNeitherReplacedNorRemoved() throws {
        let stubs = try TemporaryStubs()
        let text = TemporaryStubs.mapping("/l", body: "linked", id: Self.handWritten, extra: #", "persistent": true"#)
        stubs.write("shared/linked.json", text)
        symlink("../shared/linked.json", stubs.root + "/mappings/linked.json")
        let server = try startServer(stubs: stubs.root)
        defer { server.stop() }
        #expect(try fetch(server.port, "/l").text == "linked")
        let put = try fetch(
            server.port, "PUT", "/__admin/mappings/\(Self.handWritten)",
            body: #"{"request": {"url": "/l"}, "response": {"body": "changed"}}"#)
        #expect(put.status == 500)
        #expect(throws: AdminError.self) { try server.admin.removeMapping(id: Self.handWritten) }
        #expect(try fetch(server.port, "/l").text == "linked")
        #expect(ExistingStubFiles.occupant(of: stubs.root + "/mappings/linked.json") == .symbolicLink)
        #expect(String(decoding: try FileSystem.read(stubs.root + "/shared/linked.json"), as: UTF8.self) == text)
    }

    /// Rewrites a stub file the way `sed -i` does: a temporary file beside it, renamed over it.
    private func replace(_ relativePath: String, with text: String, in stubs: TemporaryStubs) {
        let folder = relativePath.split(separator: "/").dropLast().joined(separator: "/")
        stubs.write(folder + "/sedTmp01", text)
        rename(stubs.root + "/" + folder + "/sedTmp01", stubs.root + "/" + relativePath)
    }
}

/// The files of the events a test saw, in order (events arrive on the watcher's thread).
private final class SeenFiles: Sendable {
    private let seen = Locked<[String]>([])

    var files: [String] { seen.withLock { $0 } }

    func add(_ file: String?) {
        if let file { seen.withLock { $0.append(file) } }
    }
}
