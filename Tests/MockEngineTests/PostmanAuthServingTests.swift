import HTTPCore
import StubFormat
import TestSupport
import Testing

@testable import StubServerKit

/// A collection's stubs served with `requiringAuth`: the credential each request's helper adds
/// is what matches its examples, and a request without it (absent or another value) gets the
/// 401 that names the helper.
@Suite struct PostmanAuthServingTests {
    static let collection = #"""
        {"info": {"name": "a", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
         "variable": [{"key": "token", "value": "s3cret"}],
         "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "{{token}}"}]},
         "item": [
          {"name": "Pets", "request": {"method": "GET", "url": "/pets"},
           "response": [{"name": "ok", "code": 200, "header": [], "body": "pets"}]},
          {"name": "Keyed", "request": {"method": "GET", "url": "/keyed", "auth": {"type": "apikey", "apikey": [
             {"key": "key", "value": "api_key"}, {"key": "value", "value": "k1"}, {"key": "in", "value": "query"}]}},
           "response": [{"name": "ok", "code": 200, "header": [], "body": "keyed"}]},
          {"name": "Open", "request": {"method": "GET", "url": "/open", "auth": {"type": "noauth"}},
           "response": [{"name": "ok", "code": 200, "header": [], "body": "open"}]}
         ]}
        """#

    static func server(requiringAuth: Bool) throws -> StubServer {
        let set = try PostmanCollection(bytes: Array(collection.utf8), source: "a.json").stubs(
            requiringAuth: requiringAuth)
        return try makeServer(mappings: set.mappings)
    }

    @Test func theCredentialIsRequiredAndItsAbsenceIsA401() throws {
        let server = try Self.server(requiringAuth: true)
        let granted = try server.answer("/pets", headers: [("Authorization", "Bearer s3cret")])
        #expect(granted.status == 200 && granted.text == "pets")
        for headers in [[], [("Authorization", "Bearer wrong")]] {
            let refused = try server.answer("/pets", headers: headers)
            #expect(refused.status == 401, "\(headers)")
            #expect(refused.header("WWW-Authenticate") == "Bearer")
            #expect(refused.header("Content-Type") == "application/problem+json")
            #expect(
                refused.json["detail"] == "The Postman request 'Pets' needs its bearer auth (the Authorization header)")
        }
        #expect(try server.answer("/keyed?api_key=k1").text == "keyed")
        #expect(try server.answer("/keyed?api_key=k2").status == 401)
        #expect(try server.answer("/keyed").status == 401)
        #expect(try server.answer("/open").text == "open")
        // Another path is no stub's: a 404, not a 401.
        #expect(try server.answer("/other", headers: [("Authorization", "Bearer s3cret")]).status == 404)
    }

    @Test func notRequiredEveryExampleAnswersWithoutCredentials() throws {
        let server = try Self.server(requiringAuth: false)
        #expect(try server.answer("/pets").text == "pets")
        #expect(try server.answer("/keyed").text == "keyed")
    }
}
