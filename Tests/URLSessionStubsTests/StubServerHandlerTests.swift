import Foundation
import HTTPCore
import HTTPServerKit
import MockEngine
import StubFormat
import StubServerKit
import Testing
import URLSessionStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// petmock's engine answers through the session: stubs, unmatched requests, the journal and
/// the admin API, with no socket.
@Suite struct StubServerHandlerTests {
    static let mapping = """
        {"request": {"method": "GET", "urlPath": "/api/pets"},
         "response": {"status": 200, "headers": {"Content-Type": "application/json"},
                      "jsonBody": [{"name": "Rex"}]}}
        """

    @Test func aStubServerAnswersThroughTheSession() async throws {
        let server = try StubServer(mappings: [try StubMapping(json: Self.mapping)])
        let host = StubURLSessionHost(handler: server)
        let fetched = try await fetch(host.session, "https://pets.example/api/pets?limit=1")
        #expect(fetched.status == 200)
        #expect(fetched.response?.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(fetched.text.contains(#""name""#) && fetched.text.contains("Rex"))

        let unmatched = try await fetch(host.session, "https://pets.example/api/vets")
        #expect(unmatched.status == 404)

        let logged = server.admin.requests()
        #expect(logged.count == 2)
        #expect(logged.map(\.url).sorted() == ["/api/pets?limit=1", "/api/vets"])

        // The admin API answers requests addressed to a loopback name only, as over a socket.
        let refused = try await fetch(host.session, "https://pets.example/__admin/mappings")
        #expect(refused.status == 403)
        let admin = try await fetch(host.session, "http://localhost/__admin/mappings")
        #expect(admin.status == 200)
        #expect(admin.text.contains("/api/pets"))
    }
}
