import Testing

/// WireMock's `VerificationAcceptanceTest` (Apache-2.0, `src/test/java/com/github/tomakehurst/wiremock/`)
/// carried over as data: the requests a test sends, then the request pattern its `verify(...)`
/// posts to `/__admin/requests/count` and the count that passes (1) or fails (0) the
/// verification; `findAll` through `/__admin/requests/find`.
@Suite struct VerificationAcceptanceParityTests {
    static let sample = #"{ "thing": { "importantKey": "Important value" } }"#
    static let json = [("Content-Type", "application/json")]
    static let xml = [("Content-Type", "application/xml")]

    /// Sends `requests` (none stubbed: each a 404), then counts `pattern`.
    static func verify(_ source: String, _ requests: [Probe], _ pattern: String, count: Int) -> AcceptanceCase {
        AcceptanceCase(
            source, [],
            requests + [
                Probe(
                    "POST", "/__admin/requests/count", body: "{\(pattern)}", status: 200,
                    json: ["$.count": "[\(count)]"])
            ])
    }

    static let anyURL = #"{"request": {"method": "GET", "urlPattern": ".*"}, "response": {"status": 200}}"#

    static func get(_ target: String, _ headers: [(String, String)] = []) -> Probe {
        Probe("GET", target, headers: headers, status: 404)
    }

    static func post(_ target: String, _ body: String, _ headers: [(String, String)]) -> Probe {
        Probe("POST", target, headers: headers, body: body, status: 404)
    }

    static let cases: [AcceptanceCase] =
        [
            verify(
                "verifiesRequestBasedOnUrlOnly", [get("/this/got/requested?query")],
                #""method": "GET", "url": "/this/got/requested?query""#, count: 1),
            verify(
                "queryRequestedForMatchesAnyHttpMethod", [Probe("QUERY", "/this/got/requested?query", status: 404)],
                #""method": "ANY", "url": "/this/got/requested?query""#, count: 1),
            verify(
                "throwsVerificationExceptionOnUrlEqualsWhenQueryMissing", [get("/this/got/requested?query")],
                #""method": "GET", "url": "/this/got/requested""#, count: 0),
            verify(
                "throwsVerificationExceptionOnUrlEqualsWhenPathShorter", [get("/this/got/requested?query")],
                #""method": "GET", "url": "/this/got/requeste?query""#, count: 0),
            verify(
                "throwsVerificationExceptionOnUrlEqualsWhenExtraPathPresent", [get("/this/got/requested?query")],
                #""method": "GET", "url": "/this/got/requested/?query""#, count: 0),
            verify(
                "verifiesRequestBasedOnUrlPathOnly", [get("/this/got/requested?query")],
                #""method": "GET", "urlPath": "/this/got/requested""#, count: 1),
            verify(
                "throwsVerificationExceptionOnUrlPathEqualsWhenPathShorter", [get("/this/got/requested?query")],
                #""method": "GET", "urlPath": "/this/got/requeste""#, count: 0),
            verify(
                "throwsVerificationExceptionOnUrlPathEqualsWhenExtraPathPresent", [get("/this/got/requested?query")],
                #""method": "GET", "urlPath": "/this/got/requested/""#, count: 0),
            verify(
                "verifiesRequestBasedOnUrlPathPatternOnly", [get("/this/got/requested")],
                #""method": "GET", "urlPathPattern": "/(.*?)/got/.*""#, count: 1),
            verify(
                "throwsVerificationExceptionOnUrlPathPatternWhenOnlyPrefixMatching", [get("/this/got/requested")],
                #""method": "GET", "urlPathPattern": "/(.*?)/got/""#, count: 0),
            verify(
                "throwsVerificationExceptionOnUrlPathPatternWhenOnlySuffixMatching", [get("/this/got/requested")],
                #""method": "GET", "urlPathPattern": "/got/.*""#, count: 0),
            verify(
                "throwsVerificationExceptionWhenNoMatch", [get("/this/got/requested")],
                #""method": "GET", "url": "/this/did/not""#, count: 0),
            verify(
                "verifiesWithHeaders",
                [
                    Probe(
                        "PUT", "/update/this", headers: [("Content-Type", "application/json"), ("Encoding", "UTF-8")],
                        status: 404)
                ],
                #""method": "PUT", "urlPattern": "/[a-z]+/this", "headers": {"Content-Type": {"equalTo": "application/json"}, "Encoding": {"doesNotMatch": "LATIN-1"}}"#,
                count: 1),
            verify(
                "verifiesWithMultiValueHeaders",
                [get("/multi/value/header", [("X-Thing", "One"), ("X-Thing", "Two"), ("X-Thing", "Three")])],
                #""method": "GET", "url": "/multi/value/header", "headers": {"X-Thing": {"equalTo": "Three"}}"#,
                count: 1),
            verify(
                "throwsVerificationExceptionWhenHeadersDoNotMatch",
                [
                    Probe(
                        "PUT", "/to/modify", headers: [("Content-Type", "application/json"), ("Encoding", "LATIN-1")],
                        status: 404)
                ],
                #""method": "PUT", "url": "/to/modify", "headers": {"Content-Type": {"equalTo": "application/json"}, "Encoding": {"doesNotMatch": "LATIN-1"}}"#,
                count: 0),
            verify(
                "verifiesWithBody", [post("/add/this", sample, json)],
                #""method": "POST", "url": "/add/this", "bodyPatterns": [{"matches": ".*\"importantKey\": \"Important value\".*"}]"#,
                count: 1),
            verify(
                "verifiesWithBodyContainingJson", [post("/body/contains", sample, json)],
                #""method": "POST", "url": "/body/contains", "bodyPatterns": [{"matchesJsonPath": "$.thing"}, {"matchesJsonPath": "$..thing[?(@.importantKey == 'Important value')]"}]"#,
                count: 1),
            verify(
                "verifiesWithBodyEquallingJson", [post("/body/json", sample, json)],
                #""method": "POST", "url": "/body/json", "bodyPatterns": [{"equalToJson": "{\"thing\": {\"importantKey\": \"Important value\"}}"}]"#,
                count: 1),
            verify(
                "verifiesWithBodyEquallingJsonWithCompareMode",
                [post("/body/json/lenient", #"{ "message": "Hello", "key": "welcome.message" }"#, json)],
                #""method": "POST", "url": "/body/json/lenient", "bodyPatterns": [{"equalToJson": "{ \"message\": \"Hello\" }", "ignoreArrayOrder": true, "ignoreExtraElements": true}]"#,
                count: 1),
            verify(
                "verifiesWithBodyEquallingXml",
                [post("/body/xml", "<thing><subThing>The stuff</subThing></thing>", xml)],
                #""method": "POST", "url": "/body/xml", "bodyPatterns": [{"equalToXml": "<thing>     <subThing>The stuff\n</subThing>\n\n    </thing>"}]"#,
                count: 1),
            verify(
                "verifiesWithBodyEquallingXpath",
                [post("/body/xml", "<thing><subThing>The stuff</subThing></thing>", xml)],
                #""method": "POST", "url": "/body/xml", "bodyPatterns": [{"matchesXPath": "//subThing[.='The stuff']"}]"#,
                count: 1),
            verify(
                "verifiesWithBodyEquallingNamespacedXpath",
                [
                    post(
                        "/namespaced/xml",
                        "<t:thing xmlns:t='http://things' xmlns:s='http://subthings'><s:subThing>The stuff</s:subThing></t:thing>",
                        xml)
                ],
                #""method": "POST", "url": "/namespaced/xml", "bodyPatterns": [{"matchesXPath": "//s:subThing[.='The stuff']", "xPathNamespaces": {"t": "http://things", "s": "http://subthings"}}]"#,
                count: 1),
            verify(
                "verifiesWithBodyContainingString", [post("/body/json", sample, json)],
                #""method": "POST", "url": "/body/json", "bodyPatterns": [{"contains": "Important value"}]"#, count: 1),
            verify(
                "throwsVerificitationExceptionWhenBodyMatches", [post("/body/json", sample, json)],
                #""method": "POST", "url": "/body/json", "bodyPatterns": [{"not": {"contains": "Important value"}}]"#,
                count: 0),
            verify(
                "verifiesWithBodyDoesNotContainValue", [post("/body/json", sample, json)],
                #""method": "POST", "url": "/body/json", "bodyPatterns": [{"not": {"contains": "stuff"}}]"#, count: 1),
            verify(
                "verifiesWithHeaderDoesNotContainValue", [get("/header/not", [("X-Thing", "One")])],
                #""method": "GET", "url": "/header/not", "headers": {"X-Thing": {"not": {"contains": "Four"}}}"#,
                count: 1),
            verify(
                "verifiesWithQueryParam", [get("/query?param=my-value")],
                #""method": "GET", "urlPath": "/query", "queryParameters": {"param": {"equalTo": "my-value"}}"#,
                count: 1),
            verify(
                "queryParameterMatchingCopesWithSpaces", [get("/spacey-query?param=My%20Value")],
                #""method": "GET", "urlPath": "/spacey-query", "queryParameters": {"param": {"equalTo": "My Value"}}"#,
                count: 1),
            verify(
                "verifyIsFalseWithQueryParamNotMatched", [get("/query?param=my-value")],
                #""method": "GET", "urlPath": "/query", "queryParameters": {"param": {"equalTo": "wrong-value"}}"#,
                count: 0
            ),
            verify(
                "verifyIsFalseWhenExpectedQueryParamMissing", [get("/query")],
                #""method": "GET", "urlPath": "/query", "queryParameters": {"param": {"equalTo": "my-value"}}"#,
                count: 0),
            verify(
                "verifiesQueryParamAbsent", [get("/without/queryParam?test-param=test-value")],
                #""method": "GET", "urlPath": "/without/queryParam", "queryParameters": {"test-param": {"equalTo": "test-value"}, "absent-param": {"absent": true}}"#,
                count: 1),
            verify(
                "failsVerificationWhenAbsentQueryParamPresent", [get("/without/queryParam?test-param=test-value")],
                #""method": "GET", "urlPath": "/without/queryParam", "queryParameters": {"test-param": {"absent": true}}"#,
                count: 0),
            AcceptanceCase(
                "resetErasesCounters", [],
                [
                    get("/count/this"), get("/count/this"), get("/count/this"),
                    Probe("POST", "/__admin/reset", status: 200),
                    Probe(
                        "POST", "/__admin/requests/count", body: #"{"method": "GET", "url": "/count/this"}"#,
                        status: 200,
                        json: ["$.count": "[0]"]),
                ]),
            AcceptanceCase(
                "findsRequestsWithMultiValueHeaders", [],
                [
                    get("/multi/value/header", [("X-Thing", "One"), ("X-Thing", "Two"), ("X-Thing", "Three")]),
                    Probe(
                        "POST", "/__admin/requests/find", body: #"{"method": "GET", "url": "/multi/value/header"}"#,
                        status: 200,
                        json: [
                            "$.requests[0].url": #"["/multi/value/header"]"#,
                            "$.requests[0].headers.X-Thing": #"[["One","Two","Three"]]"#,
                        ]),
                ]),
            AcceptanceCase(
                "verifiesArbitraryRequestCount (three, and the unmatched listed)", [],
                [
                    get("/add/to/count"), get("/add/to/count"), get("/add/to/count"), get("/other"),
                    Probe(
                        "POST", "/__admin/requests/count", body: #"{"method": "GET", "url": "/add/to/count"}"#,
                        status: 200,
                        json: ["$.count": "[3]"]),
                    Probe("GET", "/__admin/requests/unmatched", status: 200, json: ["$.requests.length()": "[4]"]),
                ]),
            verify(
                "verifiesHeaderAbsent", [get("/without/header", [("Content-Type", "application/json")])],
                #""method": "GET", "url": "/without/header", "headers": {"Content-Type": {"equalTo": "application/json"}, "Accept": {"absent": true}}"#,
                count: 1),
            verify(
                "failsVerificationWhenAbsentHeaderPresent",
                [get("/without/another/header", [("Content-Type", "application/json")])],
                #""method": "GET", "url": "/without/another/header", "headers": {"Content-Type": {"absent": true}}"#,
                count: 0),
            verify(
                "verifiesBodyAbsent", [Probe("POST", "/no/body", status: 404)],
                #""method": "POST", "url": "/no/body", "bodyPatterns": [{"absent": true}]"#, count: 1),
            verify(
                "failsVerificationWhenAbsentBodyPresent", [post("/no/body", "not absent", [])],
                #""method": "POST", "url": "/no/body", "bodyPatterns": [{"absent": true}]"#, count: 0),
            verify(
                "verifiesArbitraryRequestCount", Array(repeating: get("/add/to/count"), count: 4),
                #""method": "GET", "url": "/add/to/count""#, count: 4),
            AcceptanceCase(
                "removesEventsMatchingRequestPattern (POST /__admin/requests/remove)", [anyURL],
                [
                    Probe("GET", "/one", headers: [("My-Header", "one")], status: 200),
                    Probe("GET", "/one", headers: [("My-Header", "two")], status: 200),
                    Probe("GET", "/two", status: 200),
                    Probe(
                        "POST", "/__admin/requests/remove",
                        body: #"{"method": "GET", "urlPath": "/one", "headers": {"My-Header": {"equalTo": "two"}}}"#,
                        status: 200,
                        json: ["$.serveEvents[*].request.headers.My-Header": #"["two"]"#]),
                    Probe(
                        "GET", "/__admin/requests", status: 200,
                        json: [
                            "$.requests[*].request.url": #"["/two","/one"]"#,
                            "$.requests[1].request.headers.My-Header": #"["one"]"#,
                        ]),
                ]),
            AcceptanceCase(
                "returnsEmptyListWhenNoEventsMatchedForRemoval", [anyURL],
                [
                    Probe("GET", "/one", headers: [("My-Header", "one")], status: 200),
                    Probe("GET", "/one", headers: [("My-Header", "two")], status: 200),
                    Probe("GET", "/two", status: 200),
                    Probe(
                        "POST", "/__admin/requests/remove",
                        body: #"{"method": "GET", "urlPath": "/one", "headers": {"My-Header": {"equalTo": "wrong"}}}"#,
                        status: 200, json: ["$.serveEvents": "[[]]"]),
                    Probe("GET", "/__admin/requests", status: 200, json: ["$.meta.total": "[3]"]),
                ]),
            AcceptanceCase(
                "removesEventsAssociatedWithStubsMatchingMetadata",
                [
                    #"{"request": {"method": "GET", "url": "/with-metadata"}, "response": {"status": 200}, "metadata": {"tags": ["delete-me"]}}"#,
                    #"{"request": {"method": "GET", "url": "/without-metadata"}, "response": {"status": 200}}"#,
                ],
                [
                    Probe("GET", "/with-metadata", status: 200), Probe("GET", "/without-metadata", status: 200),
                    Probe(
                        "POST", "/__admin/requests/remove-by-metadata",
                        body: #"{"matchesJsonPath": {"expression": "$.tags[0]", "equalTo": "delete-me"}}"#, status: 200,
                        json: ["$.serveEvents[*].request.url": #"["/with-metadata"]"#]),
                    Probe(
                        "GET", "/__admin/requests", status: 200,
                        json: ["$.requests[*].request.url": #"["/without-metadata"]"#]),
                ]),
        ]
        + ["GET", "POST", "PUT", "HEAD", "TRACE", "PATCH", "OPTIONS", "DELETE", "ANY", "RANDOM"].map { method in
            verify(
                "verifyRequestedForSameMethodAsRequest(\(method))", [Probe(method, "/methods", status: 404)],
                #""method": "\#(method)", "url": "/methods""#, count: 1)
        }

    @Test(arguments: cases)
    func wireMockCase(_ example: AcceptanceCase) throws {
        try example.run()
    }
}
