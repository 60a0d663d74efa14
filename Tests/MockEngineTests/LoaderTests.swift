import JSONKit
import Testing

@testable import MockEngine
@testable import StubFormat
@testable import StubServerKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct LoaderTests {
    private func load(
        _ files: [String: String], bodies: [String: String] = [:]
    ) throws -> (TemporaryStubs, StubLoadReport) {
        let stubs = try TemporaryStubs()
        for (name, text) in files { stubs.write("mappings/" + name, text) }
        for (name, text) in bodies { stubs.write("__files/" + name, text) }
        return (stubs, try StubLoader(root: stubs.root).load())
    }

    @Test func theRepositoryStubsLoadCleanly() throws {
        let report = try StubLoader(root: Fixtures.stubs).load()
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.mappings.filter { $0.variant == nil }.count >= 5)
        let variants = Set(report.mappings.compactMap(\.variant))
        #expect(
            variants == [
                "missing-last-name", "vet-id-string", "vet-title-null", "vet-id-renamed", "pets-wrapped",
                "truncated-json", "empty-body", "proxy-html-502", "server-error-500", "maintenance-503", "slow",
                "connection-reset",
            ])
    }

    @Test func everyProblemIsReportedWithFileAndPath() throws {
        let (stubs, report) = try load([
            "bad.json": """
            {"request": {"method": "GET", "urlPath": "/a", "clientIp": "10.0.0.1"}, "response": {"status": "200", "fault": "BOOM"},
             "priority": "high", "colour": "blue"}
            """
        ])
        let problems = report.problems
        let file = stubs.root + "/mappings/bad.json"
        #expect(problems.allSatisfy { $0.file == file })
        let status = try #require(problems.first { $0.path == "$.response.status" })
        #expect(status.kind == .wrongType && status.severity == .error)
        #expect(
            status.description
                == "\(file): error: $.response.status: expected an integer from 100 to 599, found string '200'")
        #expect(problems.contains { $0.path == "$.response.fault" && $0.kind == .invalidValue })
        #expect(problems.contains { $0.path == "$.priority" && $0.kind == .wrongType })
        let colour = try #require(problems.first { $0.path == "$.colour" })
        #expect(colour.severity == .warning && colour.kind == .unknownField)
        // A request criterion petmock does not implement refuses the mapping: ignoring it would
        // make the stub match more than it says.
        #expect(problems.contains { $0.path == "$.request.clientIp" && $0.severity == .error })
        #expect(report.mappings.isEmpty)
        #expect(report.errorCount == 4 && report.warningCount == 1)
    }

    @Test func invalidJSONIsReportedWithItsPosition() throws {
        let (_, report) = try load(["broken.json": "{\"request\": {\"url\": \"/a\"},\n \"response\": {\"status\": 200"])
        let problem = try #require(report.problems.first)
        #expect(problem.kind == .invalidJSON)
        #expect(problem.message.contains("line 2"))
    }

    @Test func aBadFileOrMappingNeverDropsTheGoodOnes() throws {
        let (_, report) = try load([
            "a-good.json": TemporaryStubs.mapping("/good", body: "ok"),
            "b-broken.json": "{ nope",
            "c-mixed.json": """
            {"mappings": [
              {"request": {"url": "/one"}, "response": {"body": "1"}},
              {"request": {"urlPattern": "/two(["}, "response": {"body": "2"}},
              {"request": {"url": "/three"}, "response": {"body": "3"}}
            ]}
            """,
        ])
        #expect(report.mappings.compactMap(\.request.url?.value) == ["/good", "/one", "/three"])
        let regex = try #require(report.problems.first { $0.kind == .invalidPattern })
        #expect(regex.path == "$.mappings[1].request.urlPattern")
        #expect(report.problems.contains { $0.kind == .invalidJSON })
    }

    @Test func aMappingThatDoesNotDecodeStillHasItsPatternsAndBodyFileChecked() throws {
        let (stubs, report) = try load([
            "bad.json": """
            {"request": {"urlPattern": "/a/[", "headers": {"Accept": {"matches": "("}}},
             "response": {"status": "x", "bodyFileName": "../../etc/passwd"}}
            """,
            "many.json": """
            {"mappings": [
              {"request": {"url": "/ok"}, "response": {"body": "ok"}},
              {"request": {"method": 1, "urlPathPattern": "("}, "response": {"bodyFileName": "none.txt"}}
            ]}
            """,
        ])
        let bad = stubs.root + "/mappings/bad.json"
        let many = stubs.root + "/mappings/many.json"
        let found = report.problems.map { "\($0.file == bad ? "bad" : "many") \($0.path) \($0.kind)" }
        #expect(
            Set(found) == [
                "bad $.response.status wrongType", "bad $.request.urlPattern invalidPattern",
                "bad $.request.headers.Accept.matches invalidPattern",
                "bad $.response.bodyFileName bodyFileOutsideRoot", "many $.mappings[1].request.method wrongType",
                "many $.mappings[1].request.urlPathPattern invalidPattern",
                "many $.mappings[1].response.bodyFileName bodyFileUnreadable",
            ], "\(report.problems)")
        let regex = try #require(report.problems.first { $0.path == "$.request.urlPattern" })
        #expect(regex.description.hasPrefix("\(bad): error: $.request.urlPattern: expected a valid "))
        #expect(regex.description.contains("found '/a/['"))
        #expect(report.files.first { $0.path == bad }?.mappings.isEmpty == true)
        #expect(report.mappings.compactMap(\.request.url?.value) == ["/ok"])
        #expect(report.files.first { $0.path == many }?.problems.count == 3)
    }

    @Test func bodyFilesOutsideFilesAreRefused() throws {
        let stubs = try TemporaryStubs()
        stubs.write("secret.txt", "secret")
        stubs.write("__files/inside.txt", "fine")
        symlink(stubs.root + "/secret.txt", stubs.root + "/__files/link.txt")
        stubs.write(
            "mappings/files.json",
            """
            {"mappings": [
              {"request": {"url": "/inside"}, "response": {"bodyFileName": "inside.txt"}},
              {"request": {"url": "/dotdot"}, "response": {"bodyFileName": "../secret.txt"}},
              {"request": {"url": "/link"}, "response": {"bodyFileName": "link.txt"}},
              {"request": {"url": "/far"}, "response": {"bodyFileName": "a/../../../etc/passwd"}},
              {"request": {"url": "/missing"}, "response": {"bodyFileName": "nothing.txt"}}
            ]}
            """)
        let report = try StubLoader(root: stubs.root).load()
        #expect(report.mappings.map(\.request.url?.value) == ["/inside"])
        let outside = report.problems.filter { $0.kind == .bodyFileOutsideRoot }.map(\.path)
        #expect(
            outside == [
                "$.mappings[1].response.bodyFileName", "$.mappings[2].response.bodyFileName",
                "$.mappings[3].response.bodyFileName",
            ])
        #expect(report.problems.contains { $0.kind == .bodyFileUnreadable && $0.path.hasPrefix("$.mappings[4]") })
    }

    @Test func duplicateIDsAreErrors() throws {
        let id = "11111111-1111-4111-8111-111111111111"
        let (_, report) = try load([
            "a.json": TemporaryStubs.mapping("/a", body: "a", id: id),
            "b.json": TemporaryStubs.mapping("/b", body: "b", id: id),
        ])
        #expect(report.mappings.count == 1)
        let duplicate = try #require(report.problems.first { $0.kind == .duplicateID })
        #expect(duplicate.file.hasSuffix("b.json") && duplicate.path == "$.id")
    }

    @Test func mappingsInSubfoldersAndMultiMappingFilesLoad() throws {
        let (_, report) = try load([
            "sub/dir/deep.json": TemporaryStubs.mapping("/deep", body: "d"),
            "many.json":
                #"{"mappings": [{"request": {"url": "/x"}, "response": {}}, {"request": {}, "response": {}}]}"#,
            ".hidden.json": "not even json",
            "notes.txt": "not a mapping",
        ])
        // The newer catch-all in many.json answers every request `/x` would: a warning, no error.
        #expect(report.problems.map(\.kind) == [.neverAnswers])
        #expect(report.mappings.count == 3)
    }

    @Test func missingRootIsThrown() {
        #expect(throws: StubLoadError.rootNotFound("/nonexistent/petmock")) {
            try StubLoader(root: "/nonexistent/petmock").load()
        }
    }

    @Test func everyFieldRoundTripsThroughJSON() throws {
        let text = """
            {"id": "5d1a4c52-0000-4000-8000-00000000abcd", "name": "all fields",
             "request": {"method": "POST", "urlPathTemplate": "/v/{id}", "pathParameters": {"id": {"matches": "[0-9]+"}},
               "queryParameters": {"q": {"equalTo": "x", "caseInsensitive": true}},
               "headers": {"Accept": {"contains": "json"}, "X-No": {"absent": true}},
               "bodyPatterns": [{"equalToJson": {"a": [1, 2]}, "ignoreArrayOrder": true},
                                {"matchesJsonPath": {"expression": "$.a", "contains": "1"}},
                                {"and": [{"doesNotContain": "z"}, {"doesNotMatch": "q.*"}]}]},
             "response": {"status": 201, "statusMessage": "Made", "headers": {"Set-Cookie": ["a=1", "b=2"]},
               "jsonBody": {"ok": true}, "fixedDelayMilliseconds": 5,
               "delayDistribution": {"type": "lognormal", "median": 90.0, "sigma": 0.1},
               "chunkedDribbleDelay": {"numberOfChunks": 3, "totalDuration": 30}},
             "priority": 2, "scenarioName": "s", "requiredScenarioState": "Started", "newScenarioState": "next",
             "metadata": {"variant": "v1", "description": "d"}, "persistent": false}
            """
        let mapping = try StubMapping(json: text)
        #expect(
            mapping.variant == "v1" && mapping.priority == 2
                && mapping.response.headers.values(name: "Set-Cookie").count == 2)
        let again = try StubMapping(json: mapping.json)
        #expect(again == mapping)
    }

    @Test func reservedVariantNamesAreRefused() throws {
        let (_, report) = try load([
            "v.json": TemporaryStubs.mapping("/a", body: "a", extra: #", "metadata": {"variant": "missing:x"}"#)
        ])
        #expect(report.problems.first?.path == "$.metadata.variant")
        #expect(report.mappings.isEmpty)
    }

    @Test func strictServersRefuseProblems() throws {
        let stubs = try TemporaryStubs()
        stubs.write("mappings/a.json", TemporaryStubs.mapping("/a", body: "a", extra: #", "unknownThing": 1"#))
        #expect(throws: StubServerError.self) {
            _ = try StubServer(stubsDirectory: stubs.root, configuration: StubServerConfiguration(strict: true))
        }
        let lenient = try StubServer(stubsDirectory: stubs.root)
        #expect(lenient.loadProblems.map(\.kind) == [.unknownField])
        #expect(lenient.admin.mappings().count == 1)
    }

    @Test func invalidMappingsGivenInCodeAreThrown() {
        let bad = StubMapping(request: RequestPattern(url: .urlPattern("(")), response: ResponseDefinition())
        #expect(throws: StubServerError.self) { _ = try StubServer(mappings: [bad]) }
    }
}
