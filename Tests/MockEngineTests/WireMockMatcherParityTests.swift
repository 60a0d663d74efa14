import HTTPCore
import JSONKit
import Testing

@testable import MockEngine
@testable import StubFormat
@testable import StubServerKit

/// Cookies, Basic credentials and form parameters, which petmock matches rather than ignores
/// (ignored, a stub would match more than its author wrote). Cases carried over as data from WireMock's
/// acceptance tests (Apache-2.0): `CookieMatchingAcceptanceTest` and `BasicAuthAcceptanceTest`
/// in `src/test/java/com/github/tomakehurst/wiremock/`, and the form-parameter examples of
/// WireMock's request-matching documentation.
@Suite struct WireMockMatcherParityTests {
    /// A mapping's `request` as WireMock JSON, a request, and whether it matches.
    struct Case: Sendable, CustomStringConvertible {
        let source: String
        let request: String
        let headers: [(String, String)]
        let body: String
        let matches: Bool

        var description: String { source }
    }

    static let cookieRequest =
        #"{"method": "GET", "url": "/c", "cookies": {"my_cookie": {"contains": "mycookievalue"}}}"#
    static let allCookies =
        "my_cookie=xxx-mycookievalue-xxx; my_other_cookie=exact-other-value; irrelevant_cookie=whatever"

    static let cases: [Case] = [
        // CookieMatchingAcceptanceTest
        Case(
            source: "matchesOnWellFormedCookie", request: cookieRequest,
            headers: [("Cookie", "my_cookie=xxx-mycookievalue-xxx")], body: "", matches: true),
        Case(
            source: "matchesWhenMultipleCookiesAreSentAndRequired",
            request:
                #"{"method": "GET", "url": "/c", "cookies": {"my_cookie": {"contains": "mycookievalue"}, "my_other_cookie": {"equalTo": "exact-other-value"}}}"#,
            headers: [("Cookie", allCookies)], body: "", matches: true),
        Case(
            source: "doesNotMatchWhenExpectedCookieIsAbsent", request: cookieRequest,
            headers: [("Cookie", "the_wrong_cookie=xxx-mycookievalue-xxx")], body: "", matches: false),
        Case(
            source: "doesNotMatchWhenExpectedCookieHasTheWrongValue", request: cookieRequest,
            headers: [("Cookie", "my_cookie=youwontfindthis")], body: "", matches: false),
        Case(
            source: "doesNotMatchWhenExpectedCookieIsMalformed", request: cookieRequest,
            headers: [("Cookie", "my_cookieyouwontfindthis;;sldfjskldjf%%")], body: "", matches: false),
        Case(
            source: "matchesWhenRequiredAbsentCookieIsAbsent",
            request: #"{"method": "GET", "url": "/c", "cookies": {"not_this_cookie": {"absent": true}}}"#,
            headers: [("Cookie", allCookies)], body: "", matches: true),
        Case(
            source: "doesNotMatchWhenRequiredAbsentCookieIsPresent",
            request: #"{"method": "GET", "url": "/c", "cookies": {"my_cookie": {"absent": true}}}"#,
            headers: [("Cookie", allCookies)], body: "", matches: false),
        Case(
            source: "matchesWhenRequiredCookieSentAsDuplicate",
            request:
                #"{"method": "GET", "url": "/c", "cookies": {"my_cookie": {"contains": "mycookievalue"}, "my_other_cookie": {"equalTo": "value-2"}}}"#,
            headers: [("Cookie", "my_cookie=xxx-mycookievalue-xxx; my_other_cookie=value-1; my_other_cookie=value-2")],
            body: "", matches: true),
        Case(source: "no Cookie header at all", request: cookieRequest, headers: [], body: "", matches: false),
        // petmock's own: a ';' followed by a combining mark still ends the cookie (read by bytes).
        Case(
            source: "a ';' before a combining mark separates",
            request: #"{"method": "GET", "url": "/c", "cookies": {"my_cookie": {"equalTo": "v"}}}"#,
            headers: [("Cookie", "my_cookie=v;\u{301}other=w")], body: "", matches: true),
        // BasicAuthAcceptanceTest
        Case(
            source: "matchesOnBasicAuth",
            request:
                #"{"method": "GET", "url": "/b", "basicAuthCredentials": {"username": "tom", "password": "secret"}}"#,
            headers: [("Authorization", "Basic dG9tOnNlY3JldA==")], body: "", matches: true),
        Case(
            source: "doesNotMatchWithWrongPassword",
            request:
                #"{"method": "GET", "url": "/b", "basicAuthCredentials": {"username": "tom", "password": "secret"}}"#,
            headers: [("Authorization", "Basic dG9tOndyb25n")], body: "", matches: false),
        Case(
            source: "doesNotMatchWithoutCredentials",
            request:
                #"{"method": "GET", "url": "/b", "basicAuthCredentials": {"username": "tom", "password": "secret"}}"#,
            headers: [], body: "", matches: false),
        // RFC 9110 §11.1: the scheme name is case-insensitive; the credentials are not.
        Case(
            source: "scheme name in capitals",
            request:
                #"{"method": "GET", "url": "/b", "basicAuthCredentials": {"username": "tom", "password": "secret"}}"#,
            headers: [("Authorization", "BASIC dG9tOnNlY3JldA==")], body: "", matches: true),
        Case(
            source: "scheme name in lower case",
            request:
                #"{"method": "GET", "url": "/b", "basicAuthCredentials": {"username": "tom", "password": "secret"}}"#,
            headers: [("Authorization", "basic dG9tOnNlY3JldA==")], body: "", matches: true),
        Case(
            source: "credentials in another case",
            request:
                #"{"method": "GET", "url": "/b", "basicAuthCredentials": {"username": "tom", "password": "secret"}}"#,
            headers: [("Authorization", "Basic DG9TONNLY3JLDA==")], body: "", matches: false),
        Case(
            source: "another scheme",
            request:
                #"{"method": "GET", "url": "/b", "basicAuthCredentials": {"username": "tom", "password": "secret"}}"#,
            headers: [("Authorization", "Bearer dG9tOnNlY3JldA==")], body: "", matches: false),
        // Form parameters (request-matching documentation)
        Case(
            source: "form parameter equalTo",
            request: #"{"method": "POST", "url": "/f", "formParameters": {"tool": {"equalTo": "WireMock"}}}"#,
            headers: [("Content-Type", "application/x-www-form-urlencoded")], body: "tool=WireMock&x=1", matches: true),
        Case(
            source: "form parameter decoded (plus and percent)",
            request: #"{"method": "POST", "url": "/f", "formParameters": {"name": {"equalTo": "a b&c"}}}"#,
            headers: [("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")], body: "name=a+b%26c",
            matches: true),
        Case(
            source: "form parameter with another value",
            request: #"{"method": "POST", "url": "/f", "formParameters": {"tool": {"equalTo": "WireMock"}}}"#,
            headers: [("Content-Type", "application/x-www-form-urlencoded")], body: "tool=Other", matches: false),
        Case(
            source: "form parameters only from a form body",
            request: #"{"method": "POST", "url": "/f", "formParameters": {"tool": {"equalTo": "WireMock"}}}"#,
            headers: [("Content-Type", "text/plain")], body: "tool=WireMock", matches: false),
    ]

    static func compiled(_ json: String) throws -> CompiledRequestPattern {
        var decoder = MappingDecoder(file: "test.json")
        let pattern = try #require(
            decoder.decodeRequest(try JSONValue(parsing: json), at: .root.appending(key: "request")))
        #expect(decoder.problems.isEmpty, "\(decoder.problems)")
        var problems: [PatternProblem] = []
        return try #require(CompiledRequestPattern.compile(pattern, problems: &problems))
    }

    @Test(arguments: cases)
    func wireMockCase(_ example: Case) throws {
        let pattern = try Self.compiled(example.request)
        let headers = HTTPHeaders(example.headers)
        let method: HTTPMethod = example.body.isEmpty ? .get : .post
        let target = example.body.isEmpty ? (example.request.contains("/b") ? "/b" : "/c") : "/f"
        let request = MatchableRequest(
            method: method, target: Substring(target), headers: headers, body: Array(example.body.utf8))
        #expect(pattern.matches(request) == example.matches, "\(example.source)")
        // The near-miss report reads the same criteria: a match is every criterion matched.
        #expect(pattern.evaluate(request).allSatisfy(\.matched) == example.matches, "\(example.source)")
    }

    @Test func theyRoundTripThroughTheAdminJSONAndNeverWarn() throws {
        let json =
            #"{"method": "POST", "url": "/x", "cookies": {"a": {"equalTo": "1"}}, "formParameters": {"f": {"contains": "v"}}, "basicAuthCredentials": {"username": "u", "password": "p"}}"#
        var decoder = MappingDecoder(file: "test.json")
        let pattern = try #require(decoder.decodeRequest(try JSONValue(parsing: json), at: .root))
        #expect(decoder.problems.isEmpty)
        var again = MappingDecoder(file: "again.json")
        #expect(again.decodeRequest(pattern.json, at: .root) == pattern)
        var bad = MappingDecoder(file: "bad.json")
        _ = bad.decodeRequest(try JSONValue(parsing: #"{"basicAuthCredentials": {"username": "u"}}"#), at: .root)
        #expect(
            bad.problems.map(\.description) == [
                "bad.json: error: $.basicAuthCredentials: expected 'username' and 'password', found no 'password'"
            ])
    }

    @Test func aStubWithCookiesNoLongerHidesOrIsHiddenByOneWithout() throws {
        let plain = RequestPattern(method: .get, url: .url("/c"))
        let withCookie = RequestPattern(method: .get, url: .url("/c"), cookies: [NamedMatcher("s", .equalTo("1"))])
        let response = ResponseDefinition()
        #expect(
            StubShadowing.covers(
                StubMapping(request: plain, response: response), StubMapping(request: withCookie, response: response)))
        #expect(
            !StubShadowing.covers(
                StubMapping(request: withCookie, response: response), StubMapping(request: plain, response: response)))
    }

    /// `not` (WireMock 3's logical matcher) and `matchesJsonPath` with `absent`, from WireMock's
    /// request-matching documentation and `JsonPathMatchingAcceptanceTest`.
    @Test(arguments: [
        (#"{"not": {"equalTo": "x"}}"#, "y" as String?, true), (#"{"not": {"equalTo": "x"}}"#, "x", false),
        (#"{"not": {"absent": true}}"#, nil, false), (#"{"not": {"contains": "a"}}"#, nil, true),
        // WireMock's NegativeContainsPattern and NegativeRegexPattern accept an absent value.
        (#"{"doesNotContain": "a"}"#, nil, true), (#"{"doesNotMatch": "a.*"}"#, nil, true),
        (#"{"matchesJsonPath": {"expression": "$.wrong", "absent": true}}"#, #"{"right": 1}"#, true),
        (#"{"matchesJsonPath": {"expression": "$.right", "absent": true}}"#, #"{"right": 1}"#, false),
        (#"{"matchesJsonPath": {"expression": "$.right", "not": {"equalTo": "2"}}}"#, #"{"right": 1}"#, true),
    ])
    func notAndAbsentJSONPaths(matcher json: String, value: String?, expected: Bool) throws {
        var decoder = MappingDecoder(file: "m.json")
        let matcher = try #require(decoder.matcher(try JSONValue(parsing: json), at: .root), "\(decoder.problems)")
        var problems: [PatternProblem] = []
        let compiled = try #require(CompiledMatcher.compile(matcher, at: "$", problems: &problems))
        #expect(compiled.matches(value) == expected, "\(json) on \(value ?? "nil")")
        var again = MappingDecoder(file: "again.json")
        #expect(again.matcher(matcher.json, at: .root) == matcher, "round trip")
    }

    /// `urlPath: "/path with spaces"` never matches `/path%20with%20spaces` in WireMock: the path
    /// is compared as sent. petmock agrees, and warns that such a stub can never answer.
    @Test func aURLWithASpaceCanNeverMatchAndSaysSo() throws {
        var decoder = MappingDecoder(file: "m.json")
        let pattern = try #require(
            decoder.decodeRequest(try JSONValue(parsing: #"{"urlPath": "/path with spaces"}"#), at: .root))
        #expect(decoder.problems.map(\.message).first?.contains("holds a space") == true)
        var problems: [PatternProblem] = []
        let compiled = try #require(CompiledRequestPattern.compile(pattern, problems: &problems))
        let request = MatchableRequest(
            method: .get, target: "/path%20with%20spaces", headers: HTTPHeaders(), body: [])
        #expect(!compiled.matches(request))
    }

    /// Multi-valued query parameters and headers (WireMock's `MultiValuesMatchingAcceptanceTest`).
    @Test(arguments: [
        (#"{"hasExactly": [{"equalTo": "1"}, {"equalTo": "2"}]}"#, "/m?id=2&id=1", true),
        (#"{"hasExactly": [{"equalTo": "1"}, {"equalTo": "2"}]}"#, "/m?id=1&id=2&id=3", false),
        (#"{"hasExactly": [{"equalTo": "1"}, {"equalTo": "2"}]}"#, "/m?id=1&id=1", false),
        (#"{"hasExactly": [{"contains": "1"}, {"equalTo": "1"}]}"#, "/m?id=1&id=10", true),
        (#"{"includes": [{"equalTo": "1"}]}"#, "/m?id=3&id=1", true),
        (#"{"includes": [{"equalTo": "1"}, {"equalTo": "4"}]}"#, "/m?id=3&id=1", false),
        (#"{"includes": [{"equalTo": "1"}]}"#, "/m", false),
    ])
    func multiValuedQueryParameters(matcher json: String, target: String, expected: Bool) throws {
        let pattern = try Self.compiled(#"{"urlPath": "/m", "queryParameters": {"id": \#(json)}}"#)
        let request = MatchableRequest(method: .get, target: Substring(target), headers: HTTPHeaders(), body: [])
        #expect(pattern.matches(request) == expected, "\(json) on \(target)")
        #expect(pattern.evaluate(request).allSatisfy(\.matched) == expected)
        let header = try Self.compiled(#"{"headers": {"X-Id": \#(json)}}"#)
        let ids = target.split(separator: "?").dropFirst().first?.split(separator: "&").map {
            ("X-Id", String($0.dropFirst(3)))
        }
        let withHeaders = MatchableRequest(
            method: .get, target: "/m", headers: HTTPHeaders(ids ?? []), body: [])
        #expect(header.matches(withHeaders) == expected, "header \(json) on \(target)")
    }

    /// Method `oneOf`/`noneOf`, from WireMock's `StubbingAcceptanceTest`
    /// (`testStubWith{Is,Invalid Is}{OneOf,NoneOf}RequestMethods`, `...AndAnyRequestMethod`: `ANY`
    /// in the list is dropped) and `RequestMethodTest` (the JSON shape).
    @Test(arguments: [
        (#"{"oneOf": ["PUT", "POST"]}"#, "PUT", true), (#"{"oneOf": ["PUT", "POST"]}"#, "POST", true),
        (#"{"oneOf": ["PUT", "POST"]}"#, "GET", false), (#"{"noneOf": ["PUT", "POST"]}"#, "PUT", false),
        (#"{"noneOf": ["PUT", "POST"]}"#, "POST", false), (#"{"noneOf": ["PUT", "POST"]}"#, "GET", true),
        (#"{"oneOf": ["PUT", "POST", "ANY"]}"#, "PUT", true), (#"{"oneOf": ["PUT", "POST", "ANY"]}"#, "GET", false),
        (#"{"noneOf": ["PUT", "POST", "ANY"]}"#, "POST", false), (#"{"noneOf": ["PUT", "POST", "ANY"]}"#, "GET", true),
        (#"{"oneOf": ["GET", "POST", "PUT"]}"#, "PUT", true),
    ])
    func methodOneOf(methods: String, method: String, expected: Bool) throws {
        let pattern = try Self.compiled(#"{"method": \#(methods), "url": "/some/url"}"#)
        let request = MatchableRequest(
            method: HTTPMethod(rawValue: method), target: "/some/url", headers: HTTPHeaders(), body: [])
        #expect(pattern.matches(request) == expected, "\(methods) on \(method)")
        #expect(pattern.evaluate(request).allSatisfy(\.matched) == expected)
        var again = MappingDecoder(file: "again.json")
        #expect(again.decodeRequest(pattern.source.json, at: .root) == pattern.source, "round trip")
    }

    @Test(arguments: [
        (#"{"oneOf": []}"#, "$.method.oneOf"), (#"{"allOf": ["GET"]}"#, "$.method"),
        (#"{"oneOf": ["GET"], "noneOf": ["PUT"]}"#, "$.method"), (#"{"oneOf": ["G T"]}"#, "$.method.oneOf[0]"),
    ])
    func badMethodSetsAreRefused(methods: String, path: String) throws {
        var decoder = MappingDecoder(file: "m.json")
        let decoded = decoder.decodeRequest(try JSONValue(parsing: #"{"method": \#(methods)}"#), at: .root)
        #expect(decoded == nil)
        #expect(decoder.problems.map(\.path) == [path])
    }
}
