import HTTPCore
import JSONKit
import MockEngine
import StubFormat
import StubServerKit
import Testing

/// A mapping that can never answer because another with the same request goes first is a
/// warning naming both.
@Suite struct ShadowingTests {
    private func mapping(
        _ url: URLPattern?, method: HTTPMethodName = .get, priority: Int? = nil, variant: String? = nil,
        scenario: (name: String, state: String?)? = nil, headers: [NamedMatcher] = []
    ) -> StubMapping {
        var mapping = StubMapping(
            request: RequestPattern(method: method.method, url: url, headers: headers),
            response: ResponseDefinition(status: 200), priority: priority, scenarioName: scenario?.name,
            requiredScenarioState: scenario?.state)
        if let variant { mapping.variant = variant }
        return mapping
    }

    enum HTTPMethodName {
        case get, post, any
        var method: HTTPMethod? {
            switch self {
            case .get: .get
            case .post: .post
            case .any: nil
            }
        }
    }

    private func shadows(_ mappings: [(StubMapping, String)]) -> [StubShadow] {
        StubShadowing.shadows(among: mappings.map { StubShadowing.Entry($0.0, file: $0.1) })
    }

    @Test func aNewerMappingWithTheSameRequestHidesTheOlder() {
        let found = shadows([
            (mapping(.url("/api/pets")), "Stubs/mappings/get-api-pets.json"),
            (mapping(.url("/api/pets")), "Stubs/mappings/pets.json"),
        ])
        #expect(found.count == 1)
        #expect(
            found.first?.problem.description
                == "Stubs/mappings/get-api-pets.json: warning: $.request: never answers: Stubs/mappings/pets.json ($) "
                + "has the same request and takes precedence (priority 5, newer)")
        #expect(found.first?.problem.kind == .neverAnswers)
    }

    @Test func aHigherPriorityWinsWhateverTheOrder() {
        let found = shadows([
            (mapping(.url("/api/pets"), priority: 1), "a.json"),
            (mapping(.url("/api/pets")), "b.json"),
        ])
        #expect(found.map(\.shadowed.file) == ["b.json"])
        #expect(found.first?.problem.message.hasSuffix("takes precedence (priority 1, higher than 5)") == true)
        // A lower priority never hides anything, newer or not.
        #expect(
            shadows([(mapping(.url("/api/pets")), "a.json"), (mapping(.url("/api/pets"), priority: 9), "b.json")])
                .map(\.shadowed.file) == ["b.json"])
    }

    @Test func aUrlPathHidesTheExactUrlOfItsPathButNotTheOtherWayRound() {
        // The hand-written `urlPath` stub answers every request the recorded `url` one would.
        let found = shadows([
            (mapping(.url("/api/pets")), "get-api-pets.json"),
            (mapping(.urlPath("/api/pets")), "pets.json"),
        ])
        #expect(found.map(\.shadowed.file) == ["get-api-pets.json"])
        #expect(found.first?.samePattern == false)
        #expect(shadows([(mapping(.urlPath("/api/pets")), "a.json"), (mapping(.url("/api/pets")), "b.json")]).isEmpty)
        #expect(
            shadows([(mapping(.url("/api/pets?limit=2")), "a.json"), (mapping(.urlPath("/api/pets")), "b.json")])
                .count == 1)
    }

    @Test func differentRequestsDoNotShadow() {
        #expect(shadows([(mapping(.url("/api/pets")), "a.json"), (mapping(.url("/api/vets")), "b.json")]).isEmpty)
        #expect(
            shadows([(mapping(.url("/api/pets")), "a.json"), (mapping(.url("/api/pets"), method: .post), "b.json")])
                .isEmpty)
        #expect(
            shadows([(mapping(.url("/api/pets")), "a.json"), (mapping(.url("/api/pets?limit=1")), "b.json")]).isEmpty)
        // A header criterion narrows the newer mapping: the older answers without the header.
        let header = [NamedMatcher("Accept", .contains("json"))]
        #expect(
            shadows([(mapping(.url("/api/pets")), "a.json"), (mapping(.url("/api/pets"), headers: header), "b.json")])
                .isEmpty)
        // The other way round, the wider newer mapping hides the narrower one.
        #expect(
            shadows([(mapping(.url("/api/pets"), headers: header), "a.json"), (mapping(.url("/api/pets")), "b.json")])
                .count == 1)
        // Regular expressions are compared as written: conservative, never a guess.
        #expect(
            shadows([(mapping(.urlPattern("/api/p.*")), "a.json"), (mapping(.urlPattern("/api/pe.*")), "b.json")])
                .isEmpty)
    }

    @Test func variantsOnlyShadowTheirOwnVariant() {
        #expect(
            shadows([
                (mapping(.url("/api/pets")), "base.json"),
                (mapping(.url("/api/pets"), variant: "empty"), "variant.json"),
            ]).isEmpty)
        #expect(
            shadows([
                (mapping(.url("/api/pets"), variant: "empty"), "a.json"),
                (mapping(.url("/api/pets"), variant: "wrapped"), "b.json"),
            ]).isEmpty)
        #expect(
            shadows([
                (mapping(.url("/api/pets"), variant: "empty"), "a.json"),
                (mapping(.url("/api/pets"), variant: "empty"), "b.json"),
            ]).map(\.shadowed.file) == ["a.json"])
    }

    @Test func scenarioStatesDoNotShadowEachOther() {
        #expect(
            shadows([
                (mapping(.url("/api/pets"), scenario: ("s", "Started")), "a.json"),
                (mapping(.url("/api/pets"), scenario: ("s", "two")), "b.json"),
            ]).isEmpty)
        // A mapping bound to a state answers only then: it hides no mapping without one.
        #expect(
            shadows([
                (mapping(.url("/api/pets")), "a.json"),
                (mapping(.url("/api/pets"), scenario: ("s", "Started")), "b.json"),
            ]).isEmpty)
        // The same state, or none on the one that goes first, does.
        #expect(
            shadows([
                (mapping(.url("/api/pets"), scenario: ("s", "Started")), "a.json"),
                (mapping(.url("/api/pets"), scenario: ("s", "Started")), "b.json"),
            ]).count == 1)
        #expect(
            shadows([
                (mapping(.url("/api/pets"), scenario: ("s", "Started")), "a.json"),
                (mapping(.url("/api/pets")), "b.json"),
            ]).count == 1)
    }

    @Test func aDifferentStatusStillAnswersToPreferCode() {
        var failing = mapping(.url("/api/pets"))
        failing.response.status = 500
        // `Prefer: code=200` reaches the older mapping: it does answer.
        #expect(shadows([(mapping(.url("/api/pets")), "a.json"), (failing, "b.json")]).isEmpty)
        // A fault has no status: nothing reaches it behind another mapping.
        var fault = mapping(.url("/api/pets"))
        fault.response.fault = .connectionResetByPeer
        #expect(shadows([(fault, "a.json"), (failing, "b.json")]).map(\.shadowed.file) == ["a.json"])
        #expect(shadows([(mapping(.url("/api/pets")), "a.json"), (fault, "b.json")]).isEmpty)
    }

    @Test func theWinnerIsTheMappingThatAnswers() {
        let found = shadows([
            (mapping(.url("/api/pets")), "a.json"),
            (mapping(.url("/api/pets"), priority: 2), "b.json"),
            (mapping(.url("/api/pets")), "c.json"),
        ])
        #expect(found.map(\.shadowed.file) == ["a.json", "c.json"])
        #expect(found.map(\.winner.file) == ["b.json", "b.json"])
    }

    @Test func validateAndServeReportShadowedFilesWithTheirPaths() throws {
        let stubs = try TemporaryStubs()
        stubs.write("mappings/get-api-pets.json", TemporaryStubs.mapping("/api/pets", body: "recorded"))
        stubs.write(
            "mappings/pets.json",
            """
            {"mappings": [
              {"request": {"method": "GET", "urlPath": "/api/vets"}, "response": {"status": 200}},
              {"request": {"method": "GET", "url": "/api/pets"}, "response": {"status": 200, "body": "hand"}}
            ]}
            """)
        let report = try StubLoader(root: stubs.root).load()
        let expected =
            "\(stubs.root)/mappings/get-api-pets.json: warning: $.request: never answers: "
            + "\(stubs.root)/mappings/pets.json ($.mappings[1]) has the same request and takes precedence "
            + "(priority 5, newer)"
        #expect(report.problems.map(\.description) == [expected])
        #expect(report.warningCount == 1 && report.errorCount == 0)
        let server = try StubServer(stubsDirectory: stubs.root)
        #expect(server.loadProblems.map(\.description) == [expected])
    }
}
