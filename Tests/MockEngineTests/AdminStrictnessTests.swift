import JSONKit
import Testing

@testable import MockEngine
@testable import StubFormat
@testable import StubServerKit

/// What the parity sweep made petmock refuse rather than ignore, and the admin routes it added.
@Suite struct AdminStrictnessTests {
    @Test func anExpressionBesideAnotherMatcherIsRefusedByName() throws {
        var decoder = MappingDecoder(file: "m.json")
        let matcher = decoder.matcher(try JSONValue(parsing: #"{"equalTo": "x", "expression": "$.a"}"#), at: .root)
        #expect(matcher == nil)
        #expect(decoder.problems.map(\.path) == ["$.expression"])
        #expect(decoder.problems.first?.kind == .unknownField)
        // Inside matchesJsonPath it is the path, and a date-time sub-matcher reads the rest.
        var inside = MappingDecoder(file: "m.json")
        let json =
            #"{"matchesJsonPath": {"expression": "$.d", "after": "2020-01-01T00:00:00Z", "truncateActual": "first day of month"}}"#
        let decoded = try #require(inside.matcher(try JSONValue(parsing: json), at: .root), "\(inside.problems)")
        var again = MappingDecoder(file: "again.json")
        #expect(again.matcher(decoded.json, at: .root) == decoded, "round trip")
    }

    /// A modifier beside a matcher that does not read it, and `pathParameters` WireMock would
    /// ignore (no `urlPathTemplate`, or a name the template lacks), are load errors at their path.
    @Test(arguments: [
        (#"{"headers": {"X": {"contains": "a", "caseInsensitive": true}}}"#, "$.headers.X.caseInsensitive"),
        (
            #"{"queryParameters": {"q": {"hasExactly": [{"equalTo": "1"}], "caseInsensitive": true}}}"#,
            "$.queryParameters.q.caseInsensitive"
        ),
        (
            #"{"bodyPatterns": [{"equalTo": "{}", "ignoreExtraElements": true}]}"#,
            "$.bodyPatterns[0].ignoreExtraElements"
        ),
        (#"{"bodyPatterns": [{"contains": "a", "schemaVersion": "V7"}]}"#, "$.bodyPatterns[0].schemaVersion"),
        (#"{"urlPath": "/a", "pathParameters": {"id": {"equalTo": "1"}}}"#, "$.pathParameters"),
        (#"{"urlPathTemplate": "/a/{id}", "pathParameters": {"idd": {"equalTo": "1"}}}"#, "$.pathParameters.idd"),
    ])
    func whatWouldBeIgnoredIsRefused(json: String, path: String) throws {
        var decoder = MappingDecoder(file: "m.json")
        #expect(decoder.decodeRequest(try JSONValue(parsing: json), at: .root) == nil)
        #expect(decoder.problems.filter(\.isError).map(\.path) == [path], "\(decoder.problems)")
    }

    @Test(arguments: [
        #"{"headers": {"X": {"equalTo": "a", "caseInsensitive": true}}}"#,
        #"{"bodyPatterns": [{"equalToJson": "{}", "ignoreExtraElements": true, "ignoreArrayOrder": false}]}"#,
        #"{"bodyPatterns": [{"matchesJsonSchema": {"type": "object"}, "schemaVersion": "V7"}]}"#,
        #"{"bodyPatterns": [{"matchesJsonPath": {"expression": "$.a", "equalTo": "X", "caseInsensitive": true}}]}"#,
        #"{"urlPathTemplate": "/a/v{id}.json", "pathParameters": {"id": {"equalTo": "1"}}}"#,
    ])
    func modifiersWhereTheyAreReadStillLoad(json: String) throws {
        var decoder = MappingDecoder(file: "m.json")
        #expect(decoder.decodeRequest(try JSONValue(parsing: json), at: .root) != nil, "\(decoder.problems)")
        #expect(decoder.problems.isEmpty, "\(decoder.problems)")
    }

    @Test func theJournalQueryIsReadOrRefused() throws {
        let server = try makeServer()
        _ = try server.answer("/one")
        _ = try server.answer("/two")
        let requests = { (query: String) throws -> JSONValue in try server.answer("/__admin/requests" + query).json }
        #expect(try requests("?since=2000-01-01T00:00:00Z")["requests"]?.arrayValue?.count == 2)
        #expect(try requests("?since=2999-01-01T00:00:00Z")["requests"]?.arrayValue?.count == 0)
        for bad in ["?since=yesterday", "?limit=abc", "?limit=-1", "?unmatched=yes", "?matchingStub="] {
            let answer = try server.answer("/__admin/requests" + bad)
            #expect(answer.status == 400, "\(bad)")
            let name = bad.dropFirst().prefix { $0 != "=" }
            #expect(answer.json["errors"]?[0]?["title"]?.stringValue?.hasPrefix(name + ":") == true, "\(answer.text)")
        }
    }

    @Test func anImportWithAnUnknownOptionChangesNothing() throws {
        let server = try makeServer()
        let body =
            #"{"mappings": [{"request": {"url": "/a"}, "response": {"status": 200}}], "importOptions": {"duplicatPolicy": "IGNORE"}}"#
        let answer = try server.answer("POST", "/__admin/mappings/import", body: body)
        #expect(answer.status == 422)
        #expect(answer.json["errors"]?[0]?["source"]?["pointer"] == "/importOptions/duplicatPolicy", "\(answer.text)")
        #expect(try server.answer("/__admin/mappings").json["meta"]?["total"] == 0)
    }

    @Test func anImportIgnoringDuplicatesKeepsTheOldMapping() throws {
        let server = try makeServer()
        let id = "44444444-4444-4444-8444-444444444444"
        let old = #"{"id": "\#(id)", "request": {"url": "/a"}, "response": {"status": 200, "body": "old"}}"#
        #expect(try server.answer("POST", "/__admin/mappings", body: old).status == 201)
        let new = #"{"id": "\#(id)", "request": {"url": "/a"}, "response": {"status": 200, "body": "new"}}"#
        let ignoring = #"{"mappings": [\#(new)], "importOptions": {"duplicatePolicy": "IGNORE"}}"#
        #expect(try server.answer("POST", "/__admin/mappings/import", body: ignoring).status == 200)
        #expect(try server.answer("/a").text == "old")
        #expect(try server.answer("POST", "/__admin/mappings/import", body: #"{"mappings": [\#(new)]}"#).status == 200)
        #expect(try server.answer("/a").text == "new", "OVERWRITE by default")
    }

    /// The routes the sweep added are under the admin guard like every other.
    @Test(arguments: [
        ("POST", "/__admin/mappings/remove"), ("POST", "/__admin/mappings/import"),
        ("POST", "/__admin/mappings/find-by-metadata"), ("POST", "/__admin/mappings/remove-by-metadata"),
        ("GET", "/__admin/mappings/unmatched"), ("DELETE", "/__admin/mappings/unmatched"),
        ("POST", "/__admin/requests/remove"), ("POST", "/__admin/requests/remove-by-metadata"),
        ("POST", "/__admin/near-misses/request-pattern"),
    ])
    func theNewRoutesNeedTheToken(method: String, path: String) throws {
        let server = try makeServer { $0.adminAccess = .token("s3cret") }
        #expect(try server.answer(method, path, body: "{}").status == 401)
        let allowed = try server.answer(method, path, headers: [("Authorization", "Bearer s3cret")], body: "{}")
        #expect(allowed.status != 401 && allowed.status != 404, "\(method) \(path): \(allowed.status) \(allowed.text)")
    }

    @Test func removingByExampleRemovesNothingWhenNothingIsLikeIt() throws {
        let server = try makeServer()
        _ = try server.answer(
            "POST", "/__admin/mappings", body: #"{"request": {"url": "/kept"}, "response": {"status": 200}}"#)
        let answer = try server.answer(
            "POST", "/__admin/mappings/remove", body: #"{"request": {"url": "/other"}, "response": {"status": 200}}"#)
        #expect(answer.status == 200)
        #expect(try server.answer("/kept").status == 200)
    }
}

/// An import is compiled whole before anything changes.
@Suite struct AdminImportTests {
    @Test func anImportWithAMappingThatCannotBeServedChangesNothing() throws {
        let kept = StubMapping(
            request: RequestPattern(method: .get, url: .url("/kept")), response: ResponseDefinition())
        let server = try StubServer(mappings: [kept], configuration: StubServerConfiguration(port: 0))
        let good = StubMapping(request: RequestPattern(method: .get, url: .url("/new")), response: ResponseDefinition())
        let bad = StubMapping(request: RequestPattern(url: .urlPattern("/a(")), response: ResponseDefinition())
        #expect(throws: AdminError.self) {
            try server.admin.importMappings([good, bad], options: .init(deleteAllNotInImport: true))
        }
        #expect(server.admin.mappings().map(\.id) == [kept.id], "nothing deleted, nothing added")
        do {
            try server.admin.importMappings([good, bad], options: .init(deleteAllNotInImport: true))
        } catch .invalidMapping(let problems) {
            #expect(problems.map(\.path) == ["$.mappings[1].request.urlPattern"])
        } catch {
            Issue.record("expected an invalid mapping, got \(error)")
        }
    }
}

/// A scenario's states are listed in the order the mappings name them, oldest mapping first,
/// whatever the mappings' priorities (the index orders by priority first).
@Suite struct ScenarioStateOrderTests {
    @Test func statesFollowTheMappingsAgeNotTheirPriority() throws {
        func mapping(_ path: String, priority: Int, from: String, to: String) -> StubMapping {
            var mapping = StubMapping(
                request: RequestPattern(method: .get, url: .url(path)), response: ResponseDefinition())
            mapping.priority = priority
            mapping.scenarioName = "flow"
            mapping.requiredScenarioState = from
            mapping.newScenarioState = to
            return mapping
        }
        let older = mapping("/a", priority: 1, from: "Started", to: "x")
        let newer = mapping("/b", priority: 5, from: "y", to: "z")
        let server = try StubServer(mappings: [older, newer], configuration: StubServerConfiguration(port: 0))
        #expect(server.admin.scenarios().first?.possibleStates == ["Started", "x", "y", "z"])
    }
}
