import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import JSONKit
import Platform
import TestSupport
import Testing

@testable import AdminAPI
@testable import MockEngine
@testable import StubFormat
@testable import StubServerKit

/// The `/__admin` API as requests and replies (no socket), and the same operations in process.
@Suite struct AdminTests {
    @Test func mappingsRoundTripOverHTTP() throws {
        let server = try makeServer(stubs: Fixtures.stubs)
        let list = try server.answer("/__admin/mappings")
        let total = Fixtures.stubCount
        #expect(list.status == 200 && list.json["meta"]?["total"] == .int(Int64(total)))
        #expect(list.json["mappings"]?.arrayValue?.count == total)
        #expect(try server.answer("/__admin/mappings?limit=2&offset=1").json["mappings"]?.arrayValue?.count == 2)

        let created = try server.answer(
            "POST", "/__admin/mappings",
            body:
                #"{"name": "ping", "request": {"method": "GET", "url": "/ping"}, "response": {"status": 200, "body": "pong"}}"#
        )
        #expect(created.status == 201)
        let id = try #require(created.json["id"]?.stringValue)
        #expect(created.json["uuid"]?.stringValue == id)
        let ping = try server.answer("/ping")
        #expect(
            ping.text == "pong" && ping.headers["Matched-Stub-Id"] == id && ping.headers["Matched-Stub-Name"] == "ping")
        #expect(try server.answer("/__admin/mappings/\(id)").json["name"] == "ping")

        let updated = try server.answer(
            "PUT", "/__admin/mappings/\(id)",
            body: #"{"request": {"method": "GET", "url": "/ping"}, "response": {"status": 200, "body": "pong 2"}}"#)
        #expect(updated.status == 200 && updated.json["id"] == .string(id))
        #expect(try server.answer("/ping").text == "pong 2")

        #expect(try server.answer("DELETE", "/__admin/mappings/\(id)").status == 200)
        #expect(try server.answer("/ping").status == 404)
        #expect(try server.answer("DELETE", "/__admin/mappings/\(id)").status == 404)
        #expect(try server.answer("/__admin/mappings/\(id)").status == 404)
    }

    @Test func invalidMappingsAre422sWithPointers() throws {
        let server = try makeServer(stubs: Fixtures.stubs)
        let response = try server.answer(
            "POST", "/__admin/mappings", body: #"{"request": {"url": "/x"}, "response": {"status": "ok"}}"#
        )
        #expect(response.status == 422)
        #expect(response.json["errors"]?[0]?["source"]?["pointer"] == "/response/status")
        #expect(try server.answer("POST", "/__admin/mappings", body: "{").status == 400)
    }

    @Test func resetRestoresTheFilesAndClearsTheRest() throws {
        let server = try makeServer(stubs: Fixtures.stubs)
        _ = try server.answer("POST", "/__admin/mappings", body: #"{"request": {"url": "/extra"}, "response": {}}"#)
        _ = try server.answer("DELETE", "/__admin/mappings/5d1a4c52-0000-4000-8000-000000000001")
        #expect(try server.answer("/api/pets").status == 404)
        #expect(try server.answer("POST", "/__admin/mappings/reset").status == 200)
        #expect(try server.answer("/api/pets").status == 200)
        #expect(try server.answer("/extra").status == 404)
        #expect(try server.answer("DELETE", "/__admin/mappings").status == 200)
        #expect(server.admin.mappings().isEmpty)
        #expect(try server.answer("POST", "/__admin/reset").status == 200)
        #expect(server.admin.mappings().count == Fixtures.stubCount && server.admin.requests().isEmpty)
    }

    @Test func journalQueries() throws {
        let server = try makeServer(stubs: Fixtures.stubs)
        _ = try server.answer("/api/pets")
        _ = try server.answer("/api/vets/1", headers: [("X-Trace", "abc")])
        _ = try server.answer("POST", "/nowhere", body: #"{"a": 1}"#)
        let all = try server.answer("/__admin/requests")
        #expect(all.json["meta"]?["total"] == 3 && all.json["requestJournalDisabled"] == false)
        let newest = try #require(all.json["requests"]?[0])
        #expect(newest["request"]?["url"] == "/nowhere" && newest["wasMatched"] == false)
        #expect(newest["request"]?["body"] == #"{"a": 1}"#)
        let oldest = try #require(all.json["requests"]?[2])
        #expect(oldest["stubMapping"]?["id"] == "5d1a4c52-0000-4000-8000-000000000001")
        #expect(oldest["responseDefinition"]?["status"] == 200)
        let id = try #require(newest["id"]?.stringValue)
        #expect(try server.answer("/__admin/requests/\(id)").json["request"]?["method"] == "POST")

        let count = try server.answer(
            "POST", "/__admin/requests/count", body: #"{"method": "GET", "urlPathPattern": "/api/.*"}"#)
        #expect(count.json["count"] == 2)
        let found = try server.answer(
            "POST", "/__admin/requests/find", body: #"{"headers": {"X-Trace": {"equalTo": "abc"}}}"#)
        #expect(found.json["requests"]?.arrayValue?.map { $0["url"] } == ["/api/vets/1"])
        let unmatched = try server.answer("/__admin/requests/unmatched")
        #expect(unmatched.json["requests"]?.arrayValue?.count == 1)
        let misses = try server.answer("/__admin/requests/unmatched/near-misses")
        let miss = try #require(misses.json["nearMisses"]?[0])
        #expect(miss["request"]?["url"] == "/nowhere")
        #expect((miss["matchResult"]?["distance"]?.doubleValue ?? 0) > 0)
        #expect(miss["stubMapping"]?["id"]?.stringValue != nil)

        #expect(try server.answer("DELETE", "/__admin/requests").status == 200)
        #expect(try server.answer("/__admin/requests").json["meta"]?["total"] == 0)
    }

    @Test(.enabled(if: Fixtures.wireMockCompat != nil, Fixtures.wireMockCompatAbsent))
    func scenariosOverHTTP() throws {
        let compat = try #require(Fixtures.wireMockCompat)
        let server = try makeServer(stubs: compat + "/remoteloader")
        let scenarios = try server.answer("/__admin/scenarios")
        let todo = try #require(scenarios.json["scenarios"]?[0])
        #expect(todo["name"] == "To do list" && todo["state"] == "Started")
        #expect(todo["possibleStates"] == ["Started", "Cancel newspaper item added"])
        let put = try server.answer(
            "PUT", "/__admin/scenarios/To%20do%20list/state", body: #"{"state": "Cancel newspaper item added"}"#)
        #expect(put.status == 200)
        #expect(try server.answer("/todo/items").text.contains("Cancel newspaper"))
        #expect(try server.answer("POST", "/__admin/scenarios/reset").status == 200)
        #expect(try server.answer("/todo/items").text == "<items><item>Buy milk</item></items>")
        #expect(try server.answer("PUT", "/__admin/scenarios/nope/state", body: #"{"state": "x"}"#).status == 404)
    }

    @Test func variantEndpoints() throws {
        let server = try makeServer(stubs: Fixtures.stubs)
        #expect(
            try server.answer("PUT", "/__admin/petmock/variant", body: #"{"variant": "pets-wrapped"}"#).status == 200)
        #expect(try server.answer("/api/pets").json["items"] != nil)
        #expect(try server.answer("/__admin/petmock/variant").json["variant"] == "pets-wrapped")
        let unknown = try server.answer("PUT", "/__admin/petmock/variant", body: #"{"variant": "bogus"}"#)
        #expect(unknown.status == 400 && unknown.json["knownVariants"]?.arrayValue?.contains("slow") == true)
        #expect(try server.answer("/__admin/petmock/variant").json["variant"] == "pets-wrapped")
        #expect(try server.answer("PUT", "/__admin/petmock/variant", body: #"{"variant": null}"#).status == 200)
        #expect(try server.answer("/api/pets").json.arrayValue != nil)
        let catalog = try server.answer("/__admin/petmock/variants")
        #expect(catalog.json["fileVariants"]?.arrayValue?.count == 12)
        #expect(catalog.json["jsonFields"]?.arrayValue?.contains("vetId") == true)
    }

    /// Live: the shutdown's own answer must still go out before the server stops.
    @Test func healthAndShutdown() async throws {
        let server = try startServer(stubs: Fixtures.stubs)
        let health = try fetch(server.port, "/__admin/health")
        #expect(health.json["status"] == "healthy")
        #expect(try fetch(server.port, "POST", "/__admin/shutdown").status == 200)
        await server.stopped()
    }

    @Test func tokenProtectsTheAdminAPI() throws {
        let server = try makeServer(stubs: Fixtures.stubs) { $0.adminAccess = .token("s3cret") }
        let refused = try server.answer("/__admin/mappings")
        #expect(refused.status == 401 && refused.headers["WWW-Authenticate"] == "Bearer")
        #expect(try server.answer("/__admin/mappings", headers: [("Authorization", "Bearer wrong")]).status == 401)
        #expect(
            try server.answer("/__admin/mappings", headers: [("Authorization", "Bearer s3cret")]).status == 200)
        #expect(try server.answer("/api/pets").status == 200)
    }

    @Test func loopbackOnlyRefusesOtherAddresses() {
        let head = HTTPRequestHead(method: .get, target: "/__admin/mappings")
        let remote = HTTPServerRequest(head: head, remoteAddress: HTTPSocketAddress(ipv4: (10, 0, 0, 7), port: 5000))
        let local = HTTPServerRequest(head: head, remoteAddress: HTTPSocketAddress(ipv4: (127, 0, 0, 1), port: 5000))
        #expect(AdminAccess.loopbackOnly.refusal(for: remote)?.status == 403)
        #expect(AdminAccess.loopbackOnly.refusal(for: local) == nil)
        #expect(AdminAccess.open.refusal(for: remote) == nil)
    }

    @Test func savingWritesMappingFilesAtomically() throws {
        let stubs = try TemporaryStubs()
        stubs.write("mappings/base.json", TemporaryStubs.mapping("/base", body: "base"))
        let server = try makeServer(stubs: stubs.root)
        let created = try server.answer(
            "POST", "/__admin/mappings",
            body: #"{"name": "Saved One!", "request": {"url": "/saved"}, "response": {"body": "kept"}}"#)
        let id = try #require(created.json["id"]?.stringValue)
        let saved = try server.answer("POST", "/__admin/mappings/save")
        let path = stubs.root + "/mappings/saved-one-\(id).json"
        #expect(saved.json["saved"] == [.string(path)])
        let names = try FileSystem.names(in: stubs.root + "/mappings")
        #expect(names == ["base.json", "saved-one-\(id).json"])
        let written = try JSONValue(parsing: FileSystem.read(path))
        #expect(written["request"]?["url"] == "/saved")
        // The saved file is a mapping file now: a reset keeps it.
        try server.admin.resetMappings()
        #expect(try server.answer("/saved").text == "kept")
        let persistent = try server.admin.addMapping(
            StubMapping(request: RequestPattern(url: .url("/p")), response: ResponseDefinition(), persistent: true))
        #expect(try FileSystem.names(in: stubs.root + "/mappings").contains("mapping-\(persistent.id).json"))
        let inMemory = try StubServer(mappings: [])
        #expect(throws: AdminError.noStubFolder) { try inMemory.admin.saveMappings() }
    }

    @Test func inProcessAdminMatchesTheHTTPOne() throws {
        let server = try makeServer(stubs: Fixtures.stubs)
        let added = try server.admin.addMapping(
            StubMapping(
                request: RequestPattern(method: .get, url: .url("/swift")),
                response: ResponseDefinition(body: .text("hi"))))
        #expect(try server.answer("/__admin/mappings/\(added.id)").json["request"]?["url"] == "/swift")
        #expect(try server.answer("/swift").text == "hi")
        #expect(try server.admin.countRequests(matching: RequestPattern(url: .url("/swift"))) == 1)
        #expect(throws: AdminError.mappingNotFound("nope")) { try server.admin.removeMapping(id: "nope") }
        #expect(throws: AdminError.self) {
            try server.admin.countRequests(matching: RequestPattern(url: .urlPattern("(")))
        }
    }
}
