import JSONKit
import TestSupport
import Testing

@testable import MockEngine
@testable import StubServerKit

/// `GET /__admin/requests`: a filter that cannot be read, or a parameter WireMock does not
/// read, is a 400 naming it, never a filter silently left out.
@Suite struct RequestFiltersTests {
    @Test(
        arguments: [
            ("unmatched=yes", "unmatched: expected true or false, found 'yes'"),
            ("matchingStub=", "matchingStub: expected a stub mapping id, found nothing"),
            ("since=yesterday", "since: expected an ISO 8601 date-time (2024-05-01T12:00:00Z), found 'yesterday'"),
            ("limit=-1", "limit: expected a whole number of 0 or more, found '-1'"),
            ("limit=ten", "limit: expected a whole number of 0 or more, found 'ten'"),
            ("unmatch=true", "unknown parameter 'unmatch': expected unmatched, matchingStub, since or limit"),
            ("limit=1&stub=x", "unknown parameter 'stub': expected unmatched, matchingStub, since or limit"),
        ] as [(String, String)])
    func aFilterThatCannotBeReadIsA400NamingIt(query: String, message: String) throws {
        let server = try StubServer(mappings: [])
        let answer = try server.answer("/__admin/requests?" + query)
        #expect(answer.status == 400)
        let errors = try JSONValue(parsing: Array(answer.text.utf8))["errors"]?.arrayValue ?? []
        #expect(errors.first?["title"]?.stringValue == message, "\(answer.text)")
    }

    @Test func theKnownFiltersTogetherAreRead() throws {
        let server = try StubServer(mappings: [])
        _ = try server.answer("/miss")
        let answer = try server.answer("/__admin/requests?unmatched=true&since=2020-01-01T00:00:00Z&limit=5")
        #expect(answer.status == 200)
        let requests = try JSONValue(parsing: Array(answer.text.utf8))["requests"]?.arrayValue ?? []
        #expect(requests.count == 1)
    }
}

/// `GET /__admin/mappings`: paging that cannot be read is a 400 naming it.
@Suite struct MappingPagingTests {
    @Test(
        arguments: [
            ("limit=ten", "limit: expected a whole number of 0 or more, found 'ten'"),
            ("offset=-2", "offset: expected a whole number of 0 or more, found '-2'"),
            ("limt=1", "unknown parameter 'limt': expected offset or limit"),
        ] as [(String, String)])
    func pagingThatCannotBeReadIsA400NamingIt(query: String, message: String) throws {
        let server = try StubServer(mappings: [])
        let answer = try server.answer("/__admin/mappings?" + query)
        #expect(answer.status == 400)
        let errors = try JSONValue(parsing: Array(answer.text.utf8))["errors"]?.arrayValue ?? []
        #expect(errors.first?["title"]?.stringValue == message, "\(answer.text)")
    }

    @Test func offsetAndLimitPage() throws {
        let mappings =
            #"{"mappings": [{"request": {"url": "/a"}, "response": {}}, {"request": {"url": "/b"}, "response": {}}, {"request": {"url": "/c"}, "response": {}}]}"#
        let server = try StubServer(mappings: [])
        #expect(try server.answer("POST", "/__admin/mappings/import", body: mappings).status < 300)
        let answer = try server.answer("/__admin/mappings?offset=1&limit=1")
        let page = try JSONValue(parsing: Array(answer.text.utf8))
        #expect(page["mappings"]?.arrayValue?.count == 1)
        #expect(page["meta"]?["total"] == .int(3))
    }
}
