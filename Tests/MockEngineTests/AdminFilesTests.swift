import JSONKit
import MockEngine
import Platform
import StubServerKit
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `/__admin/files` on a real stub folder, without a socket: names listed, bytes read, written
/// and removed, and every way out of `__files/` refused with the route's status.
@Suite struct AdminFilesTests {
    static func folder() throws -> TemporaryStubs {
        let stubs = try TemporaryStubs()
        stubs.write("__files/b.json", #"{"b":1}"#)
        stubs.write("__files/a/deep.txt", "deep")
        stubs.write("__files/.hidden", "hidden")
        stubs.write("mappings/pet.json", #"{"request": {"url": "/pet"}, "response": {"bodyFileName": "b.json"}}"#)
        return stubs
    }

    @Test func namesAreListedSortedWithFoldersAndWithoutHiddenOrEscapingOnes() throws {
        let stubs = try Self.folder()
        stubs.write("outside.txt", "secret")
        #expect(symlink(stubs.root + "/outside.txt", stubs.root + "/__files/leak.txt") == 0)
        #expect(symlink(stubs.root + "/__files/b.json", stubs.root + "/__files/c.json") == 0)
        let server = try makeServer(stubs: stubs.root)
        let list = try server.answer("GET", "/__admin/files")
        #expect(list.status == 200)
        #expect(list.json == ["a/deep.txt", "b.json", "c.json"])
        #expect(try server.admin.bodyFileNames() == ["a/deep.txt", "b.json", "c.json"])
    }

    @Test func aMissingFilesFolderListsNothing() throws {
        let stubs = try TemporaryStubs()
        #expect(rmdir(stubs.root + "/__files") == 0)
        let server = try makeServer(stubs: stubs.root)
        #expect(try server.answer("GET", "/__admin/files").json == [])
        #expect(try server.answer("GET", "/__admin/files/x.txt").status == 404)
        #expect(try server.answer("PUT", "/__admin/files/x.txt", body: "made").status == 200)
        #expect(try server.answer("GET", "/__admin/files").json == ["x.txt"])
    }

    @Test func writesAreReadBackAndServedAndRemovalsAreFinal() throws {
        let stubs = try Self.folder()
        let server = try makeServer(stubs: stubs.root)
        #expect(try server.answer("/pet").text == #"{"b":1}"#)
        let put = try server.answer("PUT", "/__admin/files/b.json", body: #"{"b":2}"#)
        #expect(put.status == 200 && put.json == .string("eyJiIjoyfQ=="), "WireMock's answer: the bytes, in base64")
        #expect(try server.answer("/pet").text == #"{"b":2}"#, "the stubs are read again, as --watch does")
        let read = try server.answer("GET", "/__admin/files/b.json")
        #expect(read.text == #"{"b":2}"# && read.headers["Content-Type"] == "application/octet-stream")
        #expect(try server.answer("PUT", "/__admin/files/new/deeper/c.txt", body: "c").status == 200)
        #expect(try server.admin.bodyFile("new/deeper/c.txt") == Array("c".utf8))
        #expect(try server.answer("DELETE", "/__admin/files/new/deeper/c.txt").status == 200)
        #expect(access(stubs.root + "/__files/new/deeper/c.txt", F_OK) != 0)
        let again = try server.answer("DELETE", "/__admin/files/new/deeper/c.txt")
        #expect(again.status == 404 && again.text.contains("No body file 'new/deeper/c.txt'"))
        #expect(try server.answer("DELETE", "/__admin/files/b.json").status == 200)
        #expect(try server.answer("/pet").text == #"{"b":2}"#, "as a --watch reload: the serving version is kept")
        #expect(try server.answer("GET", "/__admin/petmock/problems").text.contains("b.json"))
    }

    /// Each refusal: method, target, status and words of the error.
    @Test(arguments: [
        ("GET", "/__admin/files/../mappings/pet.json", 400, "'..'"),
        ("GET", "/__admin/files/%2E%2E/mappings/pet.json", 400, "'..'"),
        ("PUT", "/__admin/files/a%2F..%2F..%2Fescape.txt", 400, "'..'"),
        ("DELETE", "/__admin/files/./b.json", 400, "'.'"),
        ("PUT", "/__admin/files/nul%00.txt", 400, "NUL"),
        ("GET", "/__admin/files/leak.txt", 403, "leads outside __files/"),
        ("DELETE", "/__admin/files/leak.txt", 403, "leads outside __files/"),
        ("PUT", "/__admin/files/leak.txt", 403, "leads outside __files/"),
        ("PUT", "/__admin/files/out/new.txt", 403, "leads outside __files/"),
        ("GET", "/__admin/files/out/anything.txt", 403, "leads outside __files/"),
        ("PUT", "/__admin/files/dangling/new.txt", 403, "leads outside __files/"),
        ("PUT", "/__admin/files/a", 400, "a folder, not a file"),
        ("PUT", "/__admin/files/b.json/x", 400, "a file, not a folder"),
        ("GET", "/__admin/files/a", 404, "No body file 'a'"),
        ("GET", "/__admin/files/none.txt", 404, "No body file 'none.txt'"),
        ("POST", "/__admin/files/b.json", 404, "No admin route POST"),
    ])
    func escapesAndMistakesAreRefused(_ method: String, _ target: String, _ status: Int, _ words: String) throws {
        let stubs = try Self.folder()
        let outside = try TemporaryStubs()
        outside.write("secret.txt", "secret")
        outside.write("anything.txt", "secret")
        #expect(symlink(outside.root + "/secret.txt", stubs.root + "/__files/leak.txt") == 0)
        #expect(symlink(outside.root, stubs.root + "/__files/out") == 0)
        #expect(symlink(outside.root + "/gone", stubs.root + "/__files/dangling") == 0)
        let server = try makeServer(stubs: stubs.root)
        let answer = try server.answer(method, target, body: method == "PUT" ? "x" : "")
        #expect(answer.status == status, "\(answer.text)")
        #expect(answer.text.contains(words), "\(answer.text)")
        #expect(access(outside.root + "/new.txt", F_OK) != 0 && access(outside.root + "/escape.txt", F_OK) != 0)
        #expect(access(outside.root + "/gone", F_OK) != 0)
        #expect(try FileSystem.read(outside.root + "/secret.txt") == Array("secret".utf8), "nothing outside is touched")
    }

    @Test(arguments: [
        "GET /__admin/files", "GET /__admin/files/a.txt", "PUT /__admin/files/a.txt", "DELETE /__admin/files/a.txt",
    ])
    func aServerWithoutAStubFolderSaysSo(_ route: String) throws {
        let server = try makeServer()
        let parts = route.split(separator: " ").map(String.init)
        let answer = try server.answer(parts[0], parts[1], body: parts[0] == "PUT" ? "x" : "")
        #expect(answer.status == 409)
        #expect(answer.text.contains("no stub folder, so no __files/"), "\(answer.text)")
    }

    @Test func theListIsBounded() throws {
        let stubs = try TemporaryStubs()
        var deep = "__files"
        for level in 0...Admin.bodyFileDepthLimit { deep += "/d\(level)" }
        stubs.write(deep + "/x.txt", "deep")
        let server = try makeServer(stubs: stubs.root)
        let answer = try server.answer("GET", "/__admin/files")
        #expect(answer.status == 500 && answer.text.contains("more than \(Admin.bodyFileDepthLimit) deep"))
    }
}
