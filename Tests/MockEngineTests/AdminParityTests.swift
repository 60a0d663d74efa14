import HTTPCore
import HTTPServerKit
import JSONKit
import TestSupport
import Testing

@testable import MockEngine
@testable import StubFormat
@testable import StubServerKit

/// The admin API where petmock answered otherwise than WireMock, carried over from WireMock's
/// `AdminApiTest` and `ScenarioAcceptanceTest` (Apache-2.0) as requests and expected answers.
@Suite struct AdminParityTests {
    static let scenarioMappings = """
        {"mappings": [
          {"scenarioName": "todo", "requiredScenarioState": "Started", "newScenarioState": "done",
           "request": {"method": "POST", "url": "/todo"}, "response": {"status": 201}},
          {"scenarioName": "todo", "requiredScenarioState": "done",
           "request": {"method": "GET", "url": "/todo"}, "response": {"status": 200, "body": "done"}}]}
        """

    @Test func aSecondMappingWithTheSameIdIsRefused() throws {
        let server = try makeServer()
        let mapping =
            #"{"id": "3c1d5b7e-8f4a-4d2b-9c6e-1a2b3c4d5e6f", "request": {"url": "/a"}, "response": {"status": 200}}"#
        #expect(try server.answer("POST", "/__admin/mappings", body: mapping).status == 201)
        let again = try server.answer("POST", "/__admin/mappings", body: mapping)
        #expect(again.status == 422)
        let error = again.json["errors"]?[0]
        #expect(error?["code"] == 109)
        #expect(error?["title"] == "Duplicate stub mapping ID")
        #expect(error?["detail"]?.stringValue?.contains("3c1d5b7e-8f4a-4d2b-9c6e-1a2b3c4d5e6f") == true)
        #expect(try server.answer("/__admin/mappings").json["mappings"]?.arrayValue?.count == 1)
    }

    @Test(arguments: ["GET", "DELETE"]) func anIdThatIsNotAUUIDIsABadRequest(method: String) throws {
        let server = try makeServer()
        let answer = try server.answer(method, "/__admin/mappings/not-a-uuid")
        #expect(answer.status == 400, "\(answer.text)")
        #expect(answer.json["errors"]?[0]?["title"]?.stringValue?.contains("not-a-uuid") == true)
        let missing = try server.answer(method, "/__admin/mappings/3c1d5b7e-8f4a-4d2b-9c6e-1a2b3c4d5e6f")
        #expect(missing.status == 404)
    }

    @Test func aMappingWhoseIdIsNotAUUIDCanStillBeReadAndRemoved() throws {
        let server = try makeServer(mappings: [
            StubMapping(id: "my-stub", request: RequestPattern(url: .url("/m")), response: ResponseDefinition())
        ])
        #expect(try server.answer("/__admin/mappings/my-stub").json["id"] == "my-stub")
        #expect(try server.answer("DELETE", "/__admin/mappings/my-stub").status == 200)
        #expect(try server.answer("/__admin/mappings/my-stub").status == 400)
    }

    @Test func scenarioStatesAreCheckedAndAnEmptyBodyResets() throws {
        let folder = try TemporaryStubs()
        folder.write("mappings/todo.json", Self.scenarioMappings)
        let server = try makeServer(stubs: folder.root)
        #expect(try server.answer("PUT", "/__admin/scenarios/todo/state", body: #"{"state": "done"}"#).status == 200)
        #expect(try server.answer("/todo").text == "done")
        let unknownState = try server.answer("PUT", "/__admin/scenarios/todo/state", body: #"{"state": "nope"}"#)
        #expect(unknownState.status == 422, "\(unknownState.text)")
        #expect(try server.answer("PUT", "/__admin/scenarios/todo/state", body: "").status == 200)
        #expect(try server.answer("/todo").status == 404, "reset to Started")
        #expect(try server.answer("PUT", "/__admin/scenarios/other/state", body: "").status == 404)
        // scenarios[].mappings are the stub objects, as WireMock lists them.
        let scenarios = try server.answer("/__admin/scenarios").json["scenarios"]?.arrayValue ?? []
        #expect(scenarios.first?["mappings"]?[0]?["request"]?["url"] == "/todo")
    }

    @Test func theJournalFiltersAsWireMockDoes() throws {
        let server = try makeServer(mappings: [
            StubMapping(
                id: "5f0c8d6e-1b2a-4c3d-8e9f-0a1b2c3d4e5f",
                request: RequestPattern(method: .get, url: .url("/hit")), response: ResponseDefinition(status: 200))
        ])
        _ = try server.answer("/hit")
        _ = try server.answer("/miss")
        let unmatched = try server.answer("/__admin/requests?unmatched=true").json["requests"]?.arrayValue ?? []
        #expect(unmatched.map { $0["request"]?["url"] } == ["/miss"])
        let matching = try server.answer("/__admin/requests?matchingStub=5f0c8d6e-1b2a-4c3d-8e9f-0a1b2c3d4e5f")
        #expect((matching.json["requests"]?.arrayValue ?? []).map { $0["request"]?["url"] } == ["/hit"])
    }

    @Test func withNoStubsThe404SaysWhatWireMockSays() throws {
        let server = try makeServer()
        let response = try server.answer("/anything")
        #expect(response.status == 404)
        #expect(
            response.text == "No response could be served as there are no stub mappings in this WireMock instance.")
    }

    @Test func anEmptyMappingMatchesAnyRequestWith200ButNotNextToAMisspelling() throws {
        var decoder = MappingDecoder(file: "empty.json")
        let mapping = try #require(decoder.decodeMapping(try JSONValue(parsing: "{}"), at: .root))
        #expect(mapping.request == RequestPattern() && mapping.response.status == 200)
        var typo = MappingDecoder(file: "typo.json")
        #expect(typo.decodeMapping(try JSONValue(parsing: #"{"requst": {"url": "/a"}}"#), at: .root) == nil)
        #expect(
            typo.problems.map(\.message).contains("missing field 'request' (is 'requst' a misspelling of it?)"),
            "\(typo.problems.map(\.message))")
    }
}
