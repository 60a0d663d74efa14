import TestSupport
import Testing

@testable import MockEngine
@testable import StubServerKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A templated `bodyFileName` is read and compiled once per version of the file: kept by
/// resolved path and stamp, read again when the file changes (its size, or its times alone),
/// its errors kept too, and at most `TemplatedBodyFiles.capacity` files kept per stub.
@Suite struct TemplatedBodyFileTests {
    static let mapping =
        #"{"request": {"urlPathPattern": "/f/.*"}, "response": {"bodyFileName": "{{request.path.[1]}}.txt", "transformers": ["response-template"]}}"#

    /// A server over one templated-file stub, and that stub's file cache.
    static func server(_ folder: TemporaryStubs) throws -> (StubServer, TemplatedBodyFiles) {
        folder.write("mappings/m.json", mapping)
        let server = try makeServer(stubs: folder.root)
        #expect(server.loadProblems.isEmpty, "\(server.loadProblems)")
        let stub = try #require(server.engine.store.snapshot().index.all.first)
        guard case .file(_, let files)? = stub.template?.body else {
            throw FixtureError(description: "the stub's body is not a templated file name")
        }
        return (server, files)
    }

    /// Sets the file's access and modification times to `seconds` since the epoch.
    static func touch(_ path: String, seconds: Int) {
        var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    }

    @Test func aFileIsReadOnceAndAgainWhenItChanges() throws {
        let folder = try TemporaryStubs()
        folder.write("__files/a.txt", "A {{request.method}}")
        let (server, files) = try Self.server(folder)
        #expect(try server.answer("/f/a").text == "A GET")
        #expect(try server.answer("/f/a").text == "A GET")
        #expect(files.reads == 1)
        // Another size.
        folder.write("__files/a.txt", "AB {{request.method}}")
        #expect(try server.answer("/f/a").text == "AB GET")
        #expect(files.reads == 2)
        // The same size: its times tell (set far from any clock tick the write could share).
        folder.write("__files/a.txt", "XY {{request.method}}")
        Self.touch(folder.root + "/__files/a.txt", seconds: 1_000_000)
        #expect(try server.answer("/f/a").text == "XY GET")
        #expect(try server.answer("/f/a").text == "XY GET")
        #expect(files.reads == 3)
        // Gone, then back.
        unlink(folder.root + "/__files/a.txt")
        let missing = try server.answer("/f/a")
        #expect(missing.status == 500 && missing.text.contains("does not exist"))
        folder.write("__files/a.txt", "back {{request.method}}")
        #expect(try server.answer("/f/a").text == "back GET")
    }

    @Test func aFileThatDoesNotCompileIsA500KeptUntilItChanges() throws {
        let folder = try TemporaryStubs()
        folder.write("__files/bad.txt", "{{#if}}")
        let (server, files) = try Self.server(folder)
        for _ in 0..<3 {
            let answer = try server.answer("/f/bad")
            #expect(answer.status == 500 && answer.text.contains("the response template failed"), "\(answer.text)")
        }
        #expect(files.reads == 1)
        folder.write("__files/bad.txt", "fixed {{request.method}}")
        #expect(try server.answer("/f/bad").text == "fixed GET")
    }

    @Test func atMostCapacityFilesAreKept() throws {
        let folder = try TemporaryStubs()
        let count = TemplatedBodyFiles.capacity + 6
        for index in 0..<count { folder.write("__files/n\(index).txt", "\(index) {{request.path.[1]}}") }
        let (server, files) = try Self.server(folder)
        for index in 0..<count {
            #expect(try server.answer("/f/n\(index)").text == "\(index) n\(index)")
            #expect(files.count <= TemplatedBodyFiles.capacity)
        }
        #expect(files.reads == count)
        #expect(files.count == count - TemplatedBodyFiles.capacity)
    }

    @Test func atMostByteCapacityBytesAreKept() throws {
        let folder = try TemporaryStubs()
        // Files of 900 KiB: the bound in bytes is reached long before the bound in files.
        let size = 900 << 10
        let perCache = TemplatedBodyFiles.byteCapacity / size
        for index in 0...perCache { folder.write("__files/b\(index).txt", String(repeating: "b", count: size)) }
        let (server, files) = try Self.server(folder)
        for index in 0...perCache {
            #expect(try server.answer("/f/b\(index)").body.count == size)
            #expect(files.keptBytes <= TemplatedBodyFiles.byteCapacity)
        }
        #expect(files.count == 1 && files.keptBytes == size)
        // A file read again replaces its own bytes, not adds to them.
        folder.write("__files/b\(perCache).txt", String(repeating: "c", count: size / 2))
        #expect(try server.answer("/f/b\(perCache)").body.count == size / 2)
        #expect(files.count == 1 && files.keptBytes == size / 2)
    }

    @Test func disabledBodyFileTemplatingServesTheFileAsItIs() throws {
        let folder = try TemporaryStubs()
        folder.write("__files/raw.txt", "raw {{request.method}}")
        folder.write(
            "mappings/m.json",
            #"{"request": {"urlPathPattern": "/f/.*"}, "response": {"bodyFileName": "{{request.path.[1]}}.txt", "transformers": ["response-template"], "transformerParameters": {"disableBodyFileTemplating": true}}}"#
        )
        let server = try makeServer(stubs: folder.root)
        #expect(try server.answer("/f/raw").text == "raw {{request.method}}")
        #expect(try server.answer("/f/raw").text == "raw {{request.method}}")
    }
}
