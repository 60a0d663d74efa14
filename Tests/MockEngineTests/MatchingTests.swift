import HTTPCore
import JSONKit
import LinearRegex
import Testing

@testable import MockEngine
@testable import StubFormat
@testable import StubServerKit

@Suite struct MatchingTests {
    private func request(
        _ method: HTTPMethod, _ target: String, headers: HTTPHeaders = HTTPHeaders(), body: String = ""
    ) -> MatchableRequest {
        MatchableRequest(method: method, target: Substring(target), headers: headers, body: Array(body.utf8))
    }

    private func request(target: String, headers: HTTPHeaders = HTTPHeaders()) -> MatchableRequest {
        request(.get, target, headers: headers)
    }

    private func matches(_ pattern: RequestPattern, _ request: MatchableRequest) throws -> Bool {
        var problems: [PatternProblem] = []
        let compiled = try #require(CompiledRequestPattern.compile(pattern, problems: &problems))
        return compiled.matches(request)
    }

    static let urlCases: [(URLPattern, String, Bool)] = [
        (.url("/a?b=1"), "/a?b=1", true),
        (.url("/a?b=1"), "/a?b=2", false),
        (.url("/a"), "/a?b=1", false),
        (.urlPath("/a"), "/a?b=1", true),
        // As WireMock: the path as sent, escapes and all (a space is never in a request path).
        (.urlPath("/a b"), "/a%20b", false),
        (.urlPath("/a%20b"), "/a%20b", true),
        (.urlPath("/a"), "/ab", false),
        (.urlPattern("/items/[0-9]+\\?page=.*"), "/items/12?page=3", true),
        (.urlPattern("/items/[0-9]+"), "/items/12?page=3", false),
        (.urlPathPattern("/items/\\d+"), "/items/12?page=3", true),
        (.urlPathPattern("/items/\\d+"), "/items/x", false),
        (.urlPathPattern("(/a|/b)/c"), "/b/c", true),
        (.urlPathTemplate("/vets/{id}"), "/vets/7", true),
        (.urlPathTemplate("/vets/{id}"), "/vets/7/x", false),
        (.urlPathTemplate("/vets/{id}"), "/vets/", false),
        (.urlPathTemplate("/files/{name}.json"), "/files/a.json", true),
    ]

    @Test(arguments: urlCases)
    func urlFields(_ url: URLPattern, _ target: String, _ expected: Bool) throws {
        #expect(try matches(RequestPattern(url: url), request(target: target)) == expected)
    }

    @Test func methodAndAnyMethod() throws {
        #expect(try matches(RequestPattern(method: .post), request(.post, "/x")))
        #expect(try !matches(RequestPattern(method: .post), request(.get, "/x")))
        #expect(try matches(RequestPattern(), request(.delete, "/x")))
    }

    static let operatorCases: [(StringMatcher, String?, Bool)] = [
        (.equalTo("Rex"), "Rex", true),
        (.equalTo("Rex"), "rex", false),
        (.equalTo("Rex", caseInsensitive: true), "rEX", true),
        (.contains("json"), "application/json", true),
        (.contains("xml"), "application/json", false),
        (.doesNotContain("xml"), "application/json", true),
        (.doesNotContain("json"), "application/json", false),
        (.matches("[a-z]+/[a-z]+"), "text/plain", true),
        (.matches("text"), "text/plain", false),
        (.doesNotMatch("text/.*"), "image/png", true),
        (.doesNotMatch("text/.*"), "text/html", false),
        (.absent, nil, true),
        (.absent, "x", false),
        (.anything, nil, true),
        (.anything, "x", true),
        (.equalTo("x"), nil, false),
        (.and([.contains("a"), .contains("b")]), "ab", true),
        (.and([.contains("a"), .contains("b")]), "a", false),
        (.or([.contains("a"), .contains("b")]), "b", true),
        (.or([.contains("a"), .contains("b")]), "c", false),
        (.number(.equalToNumber, 1.5), "0001.50", true),
        (.number(.equalToNumber, 1.5), " 1.5\t", true),
        (.number(.equalToNumber, 1), "1111", false),
        (.number(.equalToNumber, 100), "1e2", true),
        (.number(.greaterThanNumber, 5), "5", false),
        (.number(.greaterThanNumber, 5), "5.01", true),
        (.number(.greaterThanEqualNumber, 5), "5", true),
        (.number(.greaterThanEqualNumber, -2), "-3", false),
        (.number(.lessThanNumber, 0), "-0.5", true),
        (.number(.lessThanNumber, 0), "0", false),
        (.number(.lessThanEqualNumber, 2.5), "2.5", true),
        (.number(.lessThanEqualNumber, 2.5), "+2.6", false),
        (.number(.lessThanNumber, 10), "a string", false),
        (.number(.lessThanNumber, 10), "NaN", false),
        (.number(.greaterThanNumber, 10), "Infinity", false),
        (.number(.lessThanNumber, 10), "0x1", false),
        (.number(.lessThanNumber, 10), "", false),
        (.number(.lessThanNumber, 10), ".", false),
        (.number(.lessThanNumber, 10), "1e", false),
        (.number(.lessThanNumber, 10), "1 2", false),
        (.number(.lessThanNumber, 10), nil, false),
        (.not(.number(.lessThanNumber, 10)), "11", true),
    ]

    @Test(arguments: operatorCases)
    func headerOperators(_ matcher: StringMatcher, _ value: String?, _ expected: Bool) throws {
        var headers = HTTPHeaders()
        if let value { headers.add(name: "X-Test", value: value) }
        let pattern = RequestPattern(headers: [NamedMatcher("x-test", matcher)])
        #expect(try matches(pattern, request(target: "/", headers: headers)) == expected)
    }

    @Test func queryParametersAreDecodedAndAnyValueMayMatch() throws {
        let pattern = RequestPattern(
            url: .urlPath("/search"),
            queryParameters: [NamedMatcher("q", .equalTo("a b")), NamedMatcher("tag", .equalTo("two"))])
        #expect(try matches(pattern, request(target: "/search?q=a+b&tag=one&tag=two")))
        #expect(try !matches(pattern, request(target: "/search?q=a+b&tag=one")))
        let absent = RequestPattern(queryParameters: [NamedMatcher("debug", .absent)])
        #expect(try matches(absent, request(target: "/x?y=1")))
        #expect(try !matches(absent, request(target: "/x?debug=1")))
    }

    /// Cookies are cut at `;` scalar by scalar: a combining mark after it must not hide it.
    @Test func aMarkAfterACookieSeparatorDoesNotJoinTwoCookies() throws {
        let pattern = RequestPattern(cookies: [NamedMatcher("a", .equalTo("1"))])
        #expect(try matches(pattern, request(target: "/", headers: ["Cookie": "a=1;\u{301}b=2"])))
        #expect(try matches(pattern, request(target: "/", headers: ["Cookie": "b=2; a=\"1\""])))
    }

    @Test func pathParametersOfTemplates() throws {
        let pattern = RequestPattern(
            url: .urlPathTemplate("/vets/{id}"), pathParameters: [NamedMatcher("id", .matches("[0-9]+"))])
        #expect(try matches(pattern, request(target: "/vets/12")))
        #expect(try !matches(pattern, request(target: "/vets/abc")))
    }

    static let bodyCases: [(StringMatcher, String, Bool)] = [
        (.equalTo(#"{"a":1}"#), #"{"a":1}"#, true),
        (.contains("Cancel newspaper"), "Cancel newspaper subscription", true),
        (.equalToJson(["a": 1, "b": [1, 2]]), #"{"b": [1, 2.0], "a": 1}"#, true),
        (.equalToJson(["a": 1]), #"{"a": 1, "extra": true}"#, false),
        (.matchesJsonPath("$.total", .number(.greaterThanEqualNumber, 100)), #"{"total": 100.0}"#, true),
        (.matchesJsonPath("$.total", .number(.greaterThanEqualNumber, 100)), #"{"total": 99.5}"#, false),
        (.matchesJsonPath("$.total", .number(.greaterThanEqualNumber, 100)), #"{"total": "120"}"#, true),
        (.equalToJson(["a": 1], ignoreExtraElements: true), #"{"a": 1, "extra": true}"#, true),
        (.equalToJson(["a": [1, 2]], ignoreArrayOrder: true), #"{"a": [2, 1]}"#, true),
        (.equalToJson(["a": [1, 2]]), #"{"a": [2, 1]}"#, false),
        (.equalToJson(["id": "${json-unit.any-number}"]), #"{"id": 5}"#, true),
        (.equalToJson(["a": 1]), "not json", false),
        (.matchesJsonPath("$.pets[?(@.vetId == 2)]"), #"{"pets": [{"vetId": 2}]}"#, true),
        (.matchesJsonPath("$.pets[?(@.vetId == 3)]"), #"{"pets": [{"vetId": 2}]}"#, false),
        (.matchesJsonPath("$.name", .equalTo("Rex")), #"{"name": "Rex"}"#, true),
        (.matchesJsonPath("$.name", .equalTo("Rex")), #"{"name": "Max"}"#, false),
        (.matchesJsonPath("$.count", .matches("[0-9]+")), #"{"count": 42}"#, true),
        (.binaryEqualTo(Array("abc".utf8)), "abc", true),
        (.binaryEqualTo(Array("abc".utf8)), "abd", false),
    ]

    @Test(arguments: bodyCases)
    func bodyOperators(_ matcher: StringMatcher, _ body: String, _ expected: Bool) throws {
        let pattern = RequestPattern(method: .post, bodyPatterns: [matcher])
        #expect(try matches(pattern, request(.post, "/", body: body)) == expected)
    }

    @Test func badPatternsAreProblemsWithPaths() {
        var problems: [PatternProblem] = []
        let pattern = RequestPattern(
            url: .urlPathTemplate("/a/{id"), headers: [NamedMatcher("A", .matches("(["))],
            bodyPatterns: [.matchesJsonPath("$[")])
        #expect(CompiledRequestPattern.compile(pattern, problems: &problems) == nil)
        #expect(
            problems.map(\.path) == [
                "$.request.urlPathTemplate", "$.request.headers.A.matches", "$.request.bodyPatterns[0].matchesJsonPath",
            ])
    }

    @Test func priorityThenNewestDecides() throws {
        let mappings = [
            StubMapping(
                name: "low", request: RequestPattern(url: .urlPathPattern("/p/.*")), response: .init(), priority: 9),
            StubMapping(name: "older", request: RequestPattern(url: .urlPath("/p/1")), response: .init(), priority: 3),
            StubMapping(name: "newer", request: RequestPattern(url: .urlPath("/p/1")), response: .init(), priority: 3),
            StubMapping(
                name: "top", request: RequestPattern(url: .urlPathTemplate("/p/{x}")), response: .init(), priority: 1),
        ]
        let store = try StubStore(loader: nil, codeMappings: mappings, serverVariant: nil)
        let index = store.snapshot().index
        let scenarios = ScenarioStore()
        #expect(index.match(request(target: "/p/1"), variant: nil, scenarios: scenarios)?.mapping.name == "top")
        #expect(index.match(request(target: "/p/1/2"), variant: nil, scenarios: scenarios)?.mapping.name == "low")
        let withoutTop = try StubStore(loader: nil, codeMappings: Array(mappings.prefix(3)), serverVariant: nil)
        #expect(
            withoutTop.snapshot().index.match(request(target: "/p/1"), variant: nil, scenarios: scenarios)?.mapping.name
                == "newer")
    }

    @Test func aThousandStubsStillFindTheRightOne() throws {
        var mappings: [StubMapping] = []
        for number in 0..<400 {
            mappings.append(
                StubMapping(request: RequestPattern(method: .get, url: .urlPath("/other/\(number)")), response: .init())
            )
            mappings.append(
                StubMapping(
                    request: RequestPattern(method: .get, url: .urlPathPattern("/p\(number)/[0-9]+")), response: .init()
                ))
            mappings.append(
                StubMapping(
                    request: RequestPattern(method: .get, url: .urlPathTemplate("/t\(number)/{id}")), response: .init())
            )
        }
        mappings.append(
            StubMapping(
                name: "target", request: RequestPattern(method: .get, url: .urlPath("/api/pets")), response: .init(),
                priority: 10))
        let store = try StubStore(loader: nil, codeMappings: mappings, serverVariant: nil)
        let index = store.snapshot().index
        let scenarios = ScenarioStore()
        #expect(index.match(request(target: "/api/pets"), variant: nil, scenarios: scenarios)?.mapping.name == "target")
        #expect(
            index.match(request(target: "/p17/5"), variant: nil, scenarios: scenarios)?.mapping.request.url
                == .urlPathPattern("/p17/[0-9]+"))
        #expect(index.match(request(target: "/t399/x"), variant: nil, scenarios: scenarios) != nil)
        #expect(index.match(request(target: "/nowhere"), variant: nil, scenarios: scenarios) == nil)
    }

    @Test func theIndexPassesOverStubsWhoseRequiredFieldsAreMissing() throws {
        // Higher-priority stubs on the same path, each needing a field; the index skips those
        // the request lacks without reading them, and must still find every one it has.
        let path = URLPattern.urlPath("/api/pets")
        let mappings = [
            StubMapping(name: "fallback", request: RequestPattern(url: path), response: .init(), priority: 9),
            StubMapping(
                name: "tenant", request: RequestPattern(url: path, headers: [NamedMatcher("X-Tenant", .equalTo("a"))]),
                response: .init(), priority: 1),
            StubMapping(
                name: "page",
                request: RequestPattern(url: path, queryParameters: [NamedMatcher("page", .equalTo("2"))]),
                response: .init(), priority: 2),
            StubMapping(
                name: "no-debug",
                request: RequestPattern(url: path, queryParameters: [NamedMatcher("debug", .absent)]),
                response: .init(), priority: 3),
            StubMapping(
                name: "either",
                request: RequestPattern(url: path, headers: [NamedMatcher("X-Mode", .or([.absent, .equalTo("b")]))]),
                response: .init(), priority: 4),
        ]
        let index = try StubStore(loader: nil, codeMappings: mappings, serverVariant: nil).snapshot().index
        let scenarios = ScenarioStore()
        func name(_ target: String, _ headers: HTTPHeaders = HTTPHeaders()) -> String? {
            index.match(request(target: target, headers: headers), variant: nil, scenarios: scenarios)?.mapping.name
        }
        #expect(name("/api/pets", ["x-tenant": "a"]) == "tenant", "header names are compared without case")
        #expect(name("/api/pets", ["X-Tenant": "b"]) == "no-debug")
        #expect(name("/api/pets?page=2") == "page")
        #expect(name("/api/pets") == "no-debug", "an absent matcher needs no field")
        #expect(name("/api/pets?debug=1") == "either", "a matcher that accepts absence needs no field")
        #expect(name("/api/pets?debug=1", ["X-Mode": "c"]) == "fallback")
    }

    @Test func fieldNameMasksNeverRejectWhatIsThere() {
        var present = FieldNameMask()
        for name in ["Host", "Accept", "X-Tenant", "Authorization"] { present.insert(name, ignoringCase: true) }
        for name in ["host", "ACCEPT", "x-tenant", "authorization"] {
            var required = FieldNameMask()
            required.insert(name, ignoringCase: true)
            #expect(present.mayContain(required), "\(name)")
        }
        #expect(present.mayContain(FieldNameMask()))
        #expect(!FieldNameMask().mayContain(present), "nothing present, something required")
    }

    @Test func nearMissesExplainEachCriterion() throws {
        let mapping = StubMapping(
            name: "pets",
            request: RequestPattern(
                method: .get, url: .urlPath("/api/pets"), headers: [NamedMatcher("Accept", .contains("json"))]),
            response: .init())
        let store = try StubStore(loader: nil, codeMappings: [mapping], serverVariant: nil)
        let misses = store.snapshot().index.nearMisses(
            for: request(.post, "/api/pet", headers: ["Accept": "text/html"]), variant: nil, scenarios: ScenarioStore())
        let miss = try #require(misses.first)
        #expect(miss.mapping.name == "pets")
        #expect(miss.differences.map(\.name) == ["method", "url", "header 'Accept'"])
        let url = try #require(miss.criteria.first { $0.name == "url" })
        #expect(url.expected == "urlPath '/api/pets'" && url.actual == "'/api/pet'")
        #expect(miss.distance > 0 && miss.distance < 1)
    }

    @Test func literalPrefixesOfRegularExpressions() {
        #expect(CompiledRegex.literalPrefix(of: "/api/items/[0-9]+") == "/api/items/")
        #expect(CompiledRegex.literalPrefix(of: "^/api/x?") == "/api/")
        #expect(CompiledRegex.literalPrefix(of: "/a|/b") == "")
        #expect(CompiledRegex.literalPrefix(of: "\\d+") == "")
        // A combining mark after `(` or `|` makes one Character with it, not one scalar: the
        // pattern is read by scalar, as it is compiled (found by FuzzStubRegex).
        #expect(CompiledRegex.literalPrefix(of: "(\u{0483})*a12}") == "")
        #expect(CompiledRegex.literalPrefix(of: "a|\u{0301}b") == "")
        #expect(CompiledRegex.literalPrefix(of: "ab\u{0301}*") == "ab")
        let regex = try? LinearTimeRegex("(\u{0483})*a12}")
        #expect(regex?.firstMatch(in: "aaaacaaaaaa12}") != nil)
        #expect(regex?.wholeMatches("a12}") == true)
    }
}
