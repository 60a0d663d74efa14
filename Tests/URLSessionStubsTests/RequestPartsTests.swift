import Foundation
import HTTPHandlerKit
import HTTPServerKit
import Testing

@testable import URLSessionStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The pieces a server would read from a URL, and the task's session as the fast path reads it.
@Suite struct RequestPartsTests {
    @Test(arguments: [
        ("http://api.example/pets?kind=cat", "api.example", "/pets?kind=cat"),
        ("http://user:secret@api.example:8080/a%20b#top", "api.example:8080", "/a%20b"),
        ("https://api.example", "api.example", "/"),
        ("https://api.example?q=1", "api.example", "/?q=1"),
        ("http://[::1]:9/p/", "[::1]:9", "/p/"),
    ])
    func authorityAndTarget(url: String, authority: String, target: String) {
        let parts = HTTPServerRequest.parts(of: url)
        #expect(parts.authority == authority[...])
        #expect(parts.target == target)
    }

    #if canImport(FoundationNetworking)
    @Test func theFastPathReadsTheHostsOwnSession() throws {
        let host = StubURLSessionHost(handler: EchoHandler())
        let task = host.session.dataTask(with: try #require(URL(string: "http://api.example/x")))
        defer { task.cancel() }
        // The first read checks the field against reflection; both must find the host's session.
        #expect(StoredSessionField.sessionAddress(of: task) == StubSessionRegistry.address(of: host.session))
        #expect(StoredSessionField.sessionAddress(of: task) == StubSessionRegistry.address(of: host.session))
        #expect(StoredSessionField.session(of: task) === host.session)
    }
    #endif
}
