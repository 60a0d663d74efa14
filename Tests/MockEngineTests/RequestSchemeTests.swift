import HTTPCore
import HTTPHandlerKit
import JSONKit
import TestSupport
import Testing

@testable import MockEngine
@testable import StubFormat
@testable import StubServerKit

/// A request that came over TLS is an `https` request everywhere petmock shows it: the
/// journal's `absoluteUrl` and `scheme`, templating's `request.baseUrl`, `request.scheme` and
/// `request.port`, a state listener's `request.baseUrl`. As values, through a server's handler
/// with the request marked as the connection marks it (the live case: `HardeningTests`' HTTPS
/// tests).
@Suite struct RequestSchemeTests {
    static func server() throws -> StubServer {
        let mapping = try StubMapping(
            json: #"""
                {"request": {"urlPath": "/where"},
                 "response": {"body": "{{request.baseUrl}} {{request.scheme}} {{request.port}}",
                              "transformers": ["response-template"]},
                 "serveEventListeners": [{"name": "recordState",
                   "parameters": {"context": "seen", "list": {"addLast": {"base": "{{request.baseUrl}}"}}}}]}
                """#)
        return try makeServer(mappings: [mapping])
    }

    static func request(secure: Bool) -> HTTPServerRequest {
        var request = HTTPServerRequest(method: .get, target: "/where?x=1", headers: ["Host": "localhost:8443"])
        request.isSecure = secure
        return request
    }

    @Test(arguments: [(true, "https"), (false, "http")])
    func theJournalAndTemplatesSayTheScheme(secure: Bool, scheme: String) throws {
        let server = try Self.server()
        let response = try #require(server.reply(to: Self.request(secure: secure)).response())
        #expect(String(decoding: response.body, as: UTF8.self) == "\(scheme)://localhost:8443 \(scheme) 8443")
        let logged = try #require(server.admin.requests().first)
        #expect(logged.scheme == scheme && logged.isSecure == secure)
        #expect(logged.absoluteURL == "\(scheme)://localhost:8443/where?x=1")
        let json = try server.answer("/__admin/requests").json["requests"]?[0]?["request"]
        #expect(
            json?["absoluteUrl"]?.stringValue == "\(scheme)://localhost:8443/where?x=1", "\(String(describing: json))")
        #expect(json?["scheme"]?.stringValue == scheme)
        #expect(server.admin.stateContext(named: "seen")?.list == [["base": .string("\(scheme)://localhost:8443")]])
        // The journal's entry, matched again (`/__admin/requests/find`), keeps its scheme.
        #expect(MatchableRequest(logged).isSecure == secure)
    }

    @Test func aRequestIsPlainUnlessTheConnectionSaysOtherwise() {
        let request = HTTPServerRequest(target: "/")
        #expect(!request.isSecure && request.scheme == "http")
    }

    /// The dashboard shows a request's absolute URL, so an HTTPS request reads as one.
    @Test func theDashboardShowsTheAbsoluteURL() throws {
        let server = try Self.server()
        let script = try server.answer("/__admin/ui/app.js").text
        #expect(script.contains("request.absoluteUrl || request.url"))
    }
}
