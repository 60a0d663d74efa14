import HTTPCore
import HTTPServerKit
import JSONKit
import Platform
import Testing

@testable import MockEngine
@testable import StubFormat
@testable import StubServerKit

/// Serving and the near-miss report run one evaluation: over every combination of a table of
/// mappings and a table of requests, `matches` says yes exactly when every criterion the
/// report lists matched, and the stub's scenario check is one of those criteria.
@Suite struct OneMatcherTests {
    /// Parts of request patterns, combined into mappings.
    static let methods = [#""method": "GET""#, #""method": "ANY""#, #""method": {"oneOf": ["GET", "POST"]}"#]
    static let urls = [
        #""url": "/pets?page=1""#, #""urlPath": "/pets""#, #""urlPathPattern": "/pe.*""#,
        #""urlPathTemplate": "/pets/{id}", "pathParameters": {"id": {"matches": "[0-9]+"}}"#, #""urlPattern": ".*""#,
    ]
    static let extras = [
        "", #""queryParameters": {"page": {"equalTo": "1"}}"#, #""queryParameters": {"page": {"absent": true}}"#,
        #""headers": {"Accept": {"contains": "json"}}"#, #""headers": {"X-Ids": {"includes": [{"equalTo": "1"}]}}"#,
        #""cookies": {"s": {"equalTo": "a"}}"#, #""bodyPatterns": [{"matchesJsonPath": "$.name"}]"#,
        #""bodyPatterns": [{"equalToJson": {"name": "Rex"}, "ignoreExtraElements": true}]"#,
        #""headers": {"Date": {"before": "2030-01-01T00:00:00Z"}}"#,
        #""queryParameters": {"page": {"not": {"equalTo": "2"}}}, "headers": {"Accept": {"absent": true}}"#,
    ]

    /// Requests: method, target, headers, body.
    static let requests: [(HTTPMethod, String, [(String, String)], String)] = [
        (.get, "/pets?page=1", [], ""), (.get, "/pets", [("Accept", "application/json")], ""),
        (.post, "/pets", [("Content-Type", "application/json")], #"{"name": "Rex", "age": 3}"#),
        (.post, "/pets/12?page=2", [("X-Ids", "1"), ("X-Ids", "2")], #"{"other": 1}"#),
        (.delete, "/pets/abc", [("Cookie", "s=a")], ""), (.get, "/other?page=1", [("Accept", "text/html")], ""),
        (.put, "/pets?page=1", [("Date", "Tue, 01 Jun 2021 15:16:17 GMT"), ("Cookie", "s=b")], "not json"),
        (.get, "/pets?page=1&page=2", [("Date", "Thu, 01 Jan 2032 00:00:00 GMT")], #"{"name": "Rex"}"#),
    ]

    static func pattern(_ json: String) throws -> CompiledRequestPattern {
        var decoder = MappingDecoder(file: "t.json")
        let pattern = try #require(decoder.decodeRequest(try JSONValue(parsing: json), at: .root), "\(json)")
        var problems: [PatternProblem] = []
        return try #require(
            CompiledRequestPattern.compile(pattern, problems: &problems, clock: .fixed(wallNanoseconds: 0)))
    }

    @Test func matchesIsEveryCriterionOfTheReportMatched() throws {
        var combinations = 0
        var matched = 0
        for method in Self.methods {
            for url in Self.urls {
                for extra in Self.extras {
                    let json = "{" + [method, url, extra].filter { !$0.isEmpty }.joined(separator: ", ") + "}"
                    let pattern = try Self.pattern(json)
                    for (verb, target, headers, body) in Self.requests {
                        let request = MatchableRequest(
                            method: verb, target: Substring(target), headers: HTTPHeaders(headers),
                            body: Array(body.utf8))
                        let criteria = pattern.evaluate(request)
                        let fast = pattern.matches(request)
                        #expect(fast == criteria.allSatisfy(\.matched), "\(json) on \(verb) \(target)")
                        #expect(criteria.allSatisfy { ($0.distance == 0) == $0.matched }, "\(json) on \(target)")
                        combinations += 1
                        if fast { matched += 1 }
                    }
                }
            }
        }
        // Both answers occur: the table is not all misses or all matches.
        #expect(combinations == 3 * 5 * 10 * 8)
        #expect(matched > 20 && matched < combinations - 20, "\(matched) of \(combinations)")
    }

    @Test func theScenarioCheckIsOneOfTheCriteria() throws {
        let mapping = try StubMapping(
            json:
                #"{"request": {"method": "GET", "urlPath": "/s"}, "response": {"status": 200}, "scenarioName": "flow", "requiredScenarioState": "Second"}"#
        )
        let compiled = StubCompiler(filesRoot: nil).compile(mapping, sequence: 0, origin: .code, file: "t.json")
        let stub = try #require(compiled.stub)
        let scenarios = ScenarioStore()
        let request = MatchableRequest(method: .get, target: "/s", headers: HTTPHeaders(), body: [])
        #expect(!stub.matches(request, scenarios: scenarios))
        let before = stub.criteria(for: request, scenarios: scenarios)
        #expect(before.map(\.name) == ["method", "url", "scenario"])
        #expect(before.last?.matched == false)
        #expect(before.last?.actual == "state 'Started'")
        scenarios.set("flow", to: "Second")
        #expect(stub.matches(request, scenarios: scenarios))
        let after = stub.criteria(for: request, scenarios: scenarios)
        #expect(after.allSatisfy { $0.matched })
        let index = StubIndex([stub])
        #expect(index.nearMisses(for: request, variant: nil, scenarios: scenarios).first?.distance == 0)
    }

    @Test func theFastPathStopsAtTheFirstFailureAndExplainsNothing() throws {
        struct Counting: MatchRecorder {
            var verdicts: [Bool] = []
            mutating func record(_ matched: Bool, _ explain: () -> MatchCriterion) -> Bool {
                verdicts.append(matched)
                return matched
            }
        }
        let pattern = try Self.pattern(
            #"{"method": "POST", "urlPath": "/pets", "headers": {"Accept": {"equalTo": "x"}}}"#)
        let request = MatchableRequest(method: .get, target: "/pets", headers: HTTPHeaders(), body: [])
        var recorder = Counting()
        #expect(!pattern.evaluate(request, into: &recorder))
        #expect(recorder.verdicts == [false])
        #expect(pattern.evaluate(request).map(\.matched) == [false, true, false])
    }
}
