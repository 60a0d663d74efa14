import Foundation
import HTTPHandlerKit
import HTTPServerKit
import Testing

@testable import URLSessionStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The pieces a server would read from a URL, and how a protocol class names its host.
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

    /// A request to an `https` URL is a secure one, as a server reads it from a TLS connection.
    @Test(arguments: [
        ("https://api.example/a", true), ("HTTPS://api.example/a", true), ("http://api.example/a", false),
    ])
    func theURLsSchemeSaysWhetherTheRequestIsSecure(url: String, secure: Bool) throws {
        let address = try #require(URL(string: url))
        let request = HTTPServerRequest(URLRequest(url: address), url: address, body: [])
        #expect(request.isSecure == secure && request.scheme == (secure ? "https" : "http"))
    }

    @Test(arguments: [0, 1, 2, 3, 5, 8, 255, 256, 1000, 65_537, Int.max])
    func aKeyTypeSpellsItsIndex(index: Int) {
        #expect(StubHostKeyRoot.key(for: index).index == index)
    }

    @Test func eachHostHasAProtocolClassOfItsOwnThatFindsIt() throws {
        let first = StubURLSessionHost(handler: EchoHandler())
        let second = StubURLSessionHost(handler: EchoHandler())
        #expect(ObjectIdentifier(first.protocolClass) != ObjectIdentifier(second.protocolClass))
        #expect(ObjectIdentifier(first.protocolClass) == ObjectIdentifier(first.protocolClass))
        for host in [first, second] {
            let protocolClass = try #require(host.protocolClass as? StubURLProtocol.Type)
            guard case .found(let found) = protocolClass.host else {
                Issue.record("no host found for \(protocolClass)")
                continue
            }
            #expect(found === host)
        }
    }

    @Test func aReleasedHostsProtocolClassFindsNoHost() throws {
        var host: StubURLSessionHost? = StubURLSessionHost(handler: EchoHandler())
        let protocolClass = try #require(host?.protocolClass as? StubURLProtocol.Type)
        host = nil
        guard case .missing(let reason) = protocolClass.host else {
            Issue.record("a released host was found")
            return
        }
        #expect(reason.contains("released"))
    }

    @Test func stubURLProtocolItselfFindsNoHost() {
        guard case .missing = StubURLProtocol.host else {
            Issue.record("StubURLProtocol found a host")
            return
        }
    }
}
