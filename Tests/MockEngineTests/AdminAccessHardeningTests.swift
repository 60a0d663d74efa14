import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import TestSupport
import Testing

@testable import AdminAPI
@testable import MockEngine
@testable import StubServerKit

/// The loopback-only admin API against a browser on the same machine: a page of another site
/// can make the browser reach 127.0.0.1 (a cross-site form POST needs no preflight; DNS
/// rebinding puts the page's own name in `Host`). Such requests carry a name that is not
/// loopback and are refused; tools and tests that address 127.0.0.1 or localhost are not.
@Suite struct AdminAccessHardeningTests {
    static func request(target: String = "/__admin/mappings", _ headers: [(String, String)]) -> HTTPServerRequest {
        HTTPServerRequest(
            head: HTTPRequestHead(method: .post, target: target, headers: HTTPHeaders(headers)),
            remoteAddress: HTTPSocketAddress(ipv4: (127, 0, 0, 1), port: 40000))
    }

    @Test(arguments: [
        ("127.0.0.1:8080", true), ("127.0.0.1", true), ("127.1.2.3:80", true), ("localhost:8080", true),
        ("LOCALHOST", true), ("petmock.localhost", true), ("[::1]:8080", true), ("localhost.", true),
        ("attacker.example", false), ("attacker.example:8080", false), ("127.0.0.1.attacker.example", false),
        ("10.0.0.7:8080", false), ("0.0.0.0:8080", false), ("localhost.attacker.example", false),
        ("127.0.0.256", false),
    ])
    func hostMustBeALoopbackName(host: String, allowed: Bool) {
        let refusal = AdminAccess.loopbackOnly.refusal(for: Self.request([("Host", host)]))
        #expect((refusal == nil) == allowed, "Host '\(host)': \(refusal?.message ?? "allowed")")
        if !allowed { #expect(refusal?.status == 403) }
    }

    /// A change (POST) must come from the origin it is addressed to; a read from any loopback
    /// origin (the browser keeps its answer from a page of another origin anyway).
    @Test(arguments: [
        ("http://localhost:3000", true, false), ("http://127.0.0.1:8080", true, true), ("https://[::1]", true, false),
        ("https://attacker.example", false, false), ("null", false, false),
        ("http://127.0.0.1.attacker.example", false, false),
    ])
    func originMustBeLoopback(origin: String, mayRead: Bool, mayChange: Bool) {
        let change = Self.request([("Host", "127.0.0.1:8080"), ("Origin", origin)])
        let refusal = AdminAccess.loopbackOnly.refusal(for: change)
        #expect((refusal == nil) == mayChange, "Origin '\(origin)': \(refusal?.message ?? "allowed")")
        let read = HTTPServerRequest(
            head: HTTPRequestHead(
                method: .get, target: "/__admin/mappings",
                headers: HTTPHeaders([("Host", "127.0.0.1:8080"), ("Origin", origin)])),
            remoteAddress: HTTPSocketAddress(ipv4: (127, 0, 0, 1), port: 40000))
        #expect((AdminAccess.loopbackOnly.refusal(for: read) == nil) == mayRead, "GET, Origin '\(origin)'")
    }

    @Test func anAbsoluteFormTargetNamesTheHost() {
        // RFC 9112 §3.2.2: the target's authority wins over Host.
        let aimed = Self.request(target: "http://attacker.example/__admin/mappings", [("Host", "127.0.0.1")])
        #expect(AdminAccess.loopbackOnly.refusal(for: aimed)?.status == 403)
        let local = Self.request(target: "http://127.0.0.1:8080/__admin/mappings", [("Host", "127.0.0.1")])
        #expect(AdminAccess.loopbackOnly.refusal(for: local) == nil)
    }

    @Test func aTokenIsNeededWhateverTheHost() {
        let access = AdminAccess.token("s3cret")
        #expect(access.refusal(for: Self.request([("Host", "127.0.0.1")]))?.status == 401)
        let authorized = Self.request([("Host", "attacker.example"), ("Authorization", "Bearer s3cret")])
        #expect(access.refusal(for: authorized) == nil)
    }

    @Test func aRebindingPageCannotShutTheServerDown() throws {
        let server = try startServer(stubs: Fixtures.stubs)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send(
            "POST /__admin/shutdown HTTP/1.1\r\nHost: attacker.example:\(server.port)\r\nContent-Length: 0\r\n\r\n")
        guard case .response(let refused) = try client.readOutcome() else {
            Issue.record("no response")
            return
        }
        #expect(refused.status == 403)
        let crossSite = try fetch(
            server.port, "POST", "/__admin/mappings", headers: [("Origin", "https://attacker.example")],
            body: #"{"request": {"url": "/planted"}, "response": {"body": "x"}}"#)
        #expect(crossSite.status == 403)
        #expect(try fetch(server.port, "/planted").status == 404)
        #expect(try fetch(server.port, "/__admin/health").status == 200)
    }
}
