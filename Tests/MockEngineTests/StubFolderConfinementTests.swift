import TestSupport
import Testing

@testable import MockEngine
@testable import StubServerKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Mapping files are read from inside the stub folder only: a symbolic link out of it is
/// refused with a problem naming it, and a link loop is walked once, not until the system
/// gives up.
@Suite struct StubFolderConfinementTests {
    @Test func aSymbolicLinkLoopLoadsEachFileOnce() throws {
        let stubs = try TemporaryStubs()
        stubs.write("mappings/one.json", TemporaryStubs.mapping("/one", body: "1"))
        symlink(".", stubs.root + "/mappings/loop")
        let report = try StubLoader(root: stubs.root).load()
        // Each directory once: following the loop would list one.json 41 times over (until
        // ELOOP), every copy after the first a duplicate-id error.
        #expect(report.mappings.map(\.request.url?.value) == ["/one"])
        #expect(report.problems.isEmpty, "\(report.problems)")
    }

    @Test func linksOutOfTheStubFolderAreRefused() throws {
        let stubs = try TemporaryStubs()
        let outside = try TemporaryStubs()
        outside.write("elsewhere/secret.json", TemporaryStubs.mapping("/secret", body: "outside"))
        stubs.write("mappings/one.json", TemporaryStubs.mapping("/one", body: "1"))
        symlink(outside.root + "/elsewhere", stubs.root + "/mappings/linked-folder")
        symlink(outside.root + "/elsewhere/secret.json", stubs.root + "/mappings/linked-file.json")
        let report = try StubLoader(root: stubs.root).load()
        #expect(report.mappings.map(\.request.url?.value) == ["/one"])
        let refused = report.problems.filter { $0.kind == .unreadableFile }.map(\.file).sorted()
        #expect(refused == [stubs.root + "/mappings/linked-file.json", stubs.root + "/mappings/linked-folder"])
        #expect(report.problems.allSatisfy { $0.isError && $0.description.contains("outside the stub folder") })
    }

    @Test func linksThatStayInsideTheStubFolderAreFollowed() throws {
        let stubs = try TemporaryStubs()
        stubs.write("shared/common.json", TemporaryStubs.mapping("/common", body: "c"))
        symlink(stubs.root + "/shared", stubs.root + "/mappings/shared")
        let report = try StubLoader(root: stubs.root).load()
        #expect(report.mappings.map(\.request.url?.value) == ["/common"])
        #expect(report.problems.isEmpty, "\(report.problems)")
    }

    @Test func aReloadedFileOutsideTheFolderIsRefused() throws {
        let stubs = try TemporaryStubs()
        let outside = try TemporaryStubs()
        outside.write("secret.json", TemporaryStubs.mapping("/secret", body: "outside"))
        symlink(outside.root + "/secret.json", stubs.root + "/mappings/late.json")
        var sequence = 0
        var ids: [String: String] = [:]
        let loaded = StubLoader(root: stubs.root).loadFile(
            stubs.root + "/mappings/late.json", compiler: StubCompiler(filesRoot: stubs.root + "/__files"),
            sequence: &sequence, ids: &ids)
        #expect(loaded.stubs.isEmpty)
        #expect(loaded.problems.first?.description.contains("outside the stub folder") == true)
    }

    @Test func theWatcherWalksALinkLoopOnceAndReportsTheRealPath() async throws {
        let stubs = try TemporaryStubs()
        stubs.write("mappings/one.json", TemporaryStubs.mapping("/one", body: "1"))
        symlink(".", stubs.root + "/mappings/loop")
        let server = try startServer(stubs: stubs.root) { $0.watch = true }
        defer { server.stop() }
        let events = server.events()
        stubs.write("mappings/one.json", TemporaryStubs.mapping("/one", body: "2"))
        // The event names the file by its own path: a watch on "loop/loop/..." taking over the
        // folder's name would reload it as another file, next to the first.
        let reloaded = try await firstEvent(events) { $0.file?.hasSuffix("/one.json") == true }
        #expect(reloaded.file == stubs.root + "/mappings/one.json")
        #expect(try fetch(server.port, "/one").text == "2")
        #expect(server.admin.mappings().count == 1)
    }
}
