import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether this build runs under a sanitizer, whose allocator (with its quarantine of freed
/// memory) replaces glibc's: RSS figures then say nothing about glibc's behaviour.
let sanitizerAllocatorActive: Bool = {
    let program = dlopen(nil, RTLD_NOW)
    let names: [String] = ["__asan_init", "__tsan_init", "__msan_init"]
    return names.contains { dlsym(program, $0) != nil }
}()

/// After large uploads the server's memory goes back to where it was: freed bodies are given
/// back to the system, not kept by the allocator.
@Suite struct MemoryReturnTests {
    @Test(.disabled(if: sanitizerAllocatorActive, "a sanitizer's allocator keeps freed memory on purpose"))
    func largeUploadsDoNotKeepTheServersMemory() async throws {
        let folder = try TemporaryDirectory(prefix: "petkit-memory")
        defer { folder.remove() }
        let server = try await ServerProcess(
            "petapi", ["serve", "--db", folder.file("api.sqlite"), "--port", "0", "--event-loops", "1"])
        defer { server.terminate() }
        let warmUp = try RawClient(port: server.port)
        try warmUp.send("GET /api/pets HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        #expect(try warmUp.readToEnd().text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        let before = try #require(server.residentKilobytes)
        // A chunked body past the 8 MiB limit: the server buffers 8 MiB of it, then refuses.
        let chunk = "100000\r\n" + String(repeating: "c", count: 0x10_0000) + "\r\n"
        let upload =
            "POST /api/pets HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
            + String(repeating: chunk, count: 9) + "0\r\n\r\n"
        for _ in 0..<4 {
            let client = try RawClient(port: server.port)
            try? client.send(upload)
            #expect(try client.readToEnd().text.hasPrefix("HTTP/1.1 413 Content Too Large\r\n"))
        }
        let after = try #require(server.residentKilobytes)
        // glibc's adaptive threshold would keep ~24 MB in the loop's arena for good.
        #expect(after - before < 12 * 1024, "RSS grew from \(before) kB to \(after) kB")
    }
}
