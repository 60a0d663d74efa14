import HTTPHandlerKit
import TestSupport
import Testing

/// petmock opens libcurl only when a proxy stub needs it (an upstream its own client does not
/// serve): serving stubs never maps libcurl, nor the TLS, Kerberos and LDAP libraries it loads.
@Suite struct LazyLibcurlTests {
    static func libcurl(in files: Set<String>) -> [String] {
        files.filter { $0.split(separator: "/").last?.hasPrefix("libcurl") == true }.sorted()
    }

    /// A stub root with `/plain` answered by a stub and `/proxied` passed on to `base`.
    static func stubRoot(prefix: String, proxyingTo base: String) throws -> TemporaryDirectory {
        let stubs = """
            {"mappings": [
              {"request": {"method": "GET", "url": "/plain"}, "response": {"status": 200, "body": "plain"}},
              {"request": {"method": "GET", "url": "/proxied"}, "response": {"proxyBaseUrl": "\(base)"}}
            ]}
            """
        return try TemporaryDirectory(prefix: prefix, files: ["mappings/stubs.json": stubs])
    }

    /// The whole answer of `server` to `GET path`, on a connection of its own.
    static func answer(_ server: ServerProcess, _ path: String) throws -> String {
        let client = try RawClient(port: server.port)
        try client.send("GET \(path) HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        return try client.readToEnd().text
    }

    #if os(Linux)  // reads /proc/PID/maps
    @Test func libcurlIsOpenedByTheFirstProxyThatNeedsIt() async throws {
        let upstream = try LiveHTTPServer { _ in .response(HTTPResponse(text: "from upstream")) }
        defer { upstream.stop() }
        // A host name, not a numeric address: petmock's own client leaves it to libcurl.
        let proxied = upstream.baseURL.replacing("127.0.0.1", with: "localhost")
        let folder = try Self.stubRoot(prefix: "petkit-lazy-curl", proxyingTo: proxied)
        defer { folder.remove() }
        let server = try await ServerProcess("petmock", ["serve", "--stubs", folder.path, "--port", "0"])
        defer { server.terminate() }

        #expect(try Self.answer(server, "/plain").hasSuffix("\r\n\r\nplain"))
        let beforeProxy = try #require(server.mappedFiles)
        #expect(!beforeProxy.isEmpty)
        #expect(Self.libcurl(in: beforeProxy) == [])

        #expect(try Self.answer(server, "/proxied").hasSuffix("\r\n\r\nfrom upstream"))
        let afterProxy = try #require(server.mappedFiles)
        #expect(Self.libcurl(in: afterProxy).count == 1, "mapped: \(afterProxy.sorted())")
    }
    #endif

    /// Where libcurl cannot be loaded, stubs are served, and a request that needs libcurl is a
    /// 502 saying which library was looked for and why it did not load.
    @Test func withoutLibcurlStubsAreServedAndAProxyToAHostNameSaysWhy() async throws {
        let folder = try Self.stubRoot(prefix: "petkit-no-curl", proxyingTo: "http://localhost:9")
        defer { folder.remove() }
        let missing = folder.file("no-such-libcurl.so")
        let server = try await ServerProcess(
            "petmock", ["serve", "--stubs", folder.path, "--port", "0"], environment: ["PETKIT_LIBCURL": missing])
        defer { server.terminate() }

        #expect(try Self.answer(server, "/plain").hasSuffix("\r\n\r\nplain"))
        let answer = try Self.answer(server, "/proxied")
        #expect(answer.hasPrefix("HTTP/1.1 502 "))
        #expect(answer.contains("libcurl could not be loaded: \(missing) ("), "\(answer)")
    }
}
