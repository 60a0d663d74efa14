import Testing

/// WireMock's `StubbingAcceptanceTest` (Apache-2.0, `src/test/java/com/github/tomakehurst/wiremock/`)
/// carried over as data: each case names the test method it comes from, its stubs as the JSON
/// WireMock's DSL posts, and the requests with the statuses WireMock answers. Left out: the
/// Jetty-specific cases (status messages, Content-Type normalisation), those that need WireMock's
/// own file root (`plain-example.txt`), `isNow()` (the clock), and the multipart ones
/// (`WireMockMultipartParityTests`) and method sets (`WireMockMatcherParityTests`) carried before.
@Suite struct StubbingAcceptanceParityTests {
    static let form = [("Content-Type", "application/x-www-form-urlencoded")]
    static let text = [("Content-Type", "text/plain")]
    static let json = [("Content-Type", "application/json")]
    static let xml = [("Content-Type", "application/xml")]

    /// `{"request": {...}, "response": {...}}` from the two objects' members.
    static func stub(_ request: String, _ response: String = #""status": 200"#) -> String {
        #"{"request": {\#(request)}, "response": {\#(response)}}"#
    }

    static let exactQuery = [
        "?q=1&q=2&q=3", "?q=1&q=3&q=2", "?q=2&q=3&q=1", "?q=2&q=1&q=3", "?q=3&q=1&q=2", "?q=3&q=2&q=1",
    ]
    static let exactQueryMisses = ["", "?q=wrong", "?q=1&q=2&q=3&q=4", "?q=1&q=4&q=5&q=6", "?q=1&q=1&q=1&q=1"]

    static let cases: [AcceptanceCase] = [
        AcceptanceCase(
            "mappingWithExactUrlAndMethodMatch",
            [
                stub(
                    #""method": "GET", "url": "/a/registered/resource""#,
                    #""status": 401, "headers": {"Content-Type": "text/plain"}, "body": "Not allowed!""#)
            ], [Probe("GET", "/a/registered/resource", status: 401, bodyContains: "Not allowed!")]),
        AcceptanceCase(
            "mappingWithExactUrlWithBodyAndQueryMethodMatch",
            [stub(#""method": "QUERY", "url": "/a/resource", "bodyPatterns": [{"contains": "BODY"}]"#)],
            [Probe("QUERY", "/a/resource", headers: text, body: "BODY", status: 200)]),
        AcceptanceCase(
            "mappingWithExactUrlWithBodyAndHeadersAndQueryMethodMatch",
            [
                stub(
                    #""method": "QUERY", "url": "/a/resource", "bodyPatterns": [{"contains": "BODY"}], "headers": {"Some-Header": {"equalTo": "Some-Value"}}"#,
                    #""status": 200, "body": "Found""#)
            ],
            [
                Probe(
                    "QUERY", "/a/resource", headers: text + [("Some-Header", "Some-Value")], body: "BODY", status: 200,
                    bodyContains: "Found"),
                Probe("QUERY", "/a/resource", headers: text, body: "BODY", status: 404),
            ]),
        AcceptanceCase(
            "mappingWithExactUrlWithNoBodyAndQueryMethodMatch",
            [stub(#""method": "QUERY", "url": "/a/resource""#, #""status": 200, "body": "Found""#)],
            [Probe("QUERY", "/a/resource", status: 200, bodyContains: "Found")]),
        AcceptanceCase(
            "mappingWithUrlContainingQueryParameters",
            [
                stub(
                    #""method": "GET", "url": "/search?name=John&postcode=N44LL""#,
                    #""status": 302, "headers": {"Location": "/nowhere"}"#)
            ],
            [
                Probe("GET", "/search?name=John&postcode=N44LL", status: 302),
                Probe("GET", "/search?postcode=N44LL&name=John", status: 404),
            ]),
        AcceptanceCase(
            "mappingWithHeaderMatchers",
            [
                stub(
                    #""method": "PUT", "url": "/some/url", "headers": {"One": {"equalTo": "abcd1234"}, "Two": {"matches": "[a-z]{5}"}, "Three": {"doesNotMatch": "[A-Z]+"}}"#,
                    #""status": 204"#)
            ],
            [
                Probe(
                    "PUT", "/some/url", headers: [("One", "abcd1234"), ("Two", "thing"), ("Three", "something")],
                    status: 204),
                Probe(
                    "PUT", "/some/url", headers: [("One", "abcd1234"), ("Two", "thing"), ("Three", "SOME")], status: 404
                ),
            ]),
        AcceptanceCase(
            "mappingWithCaseInsensitiveHeaderMatchers",
            [
                stub(
                    #""method": "PUT", "url": "/case/insensitive", "headers": {"ONE": {"equalTo": "abcd1234"}, "two": {"matches": "[a-z]{5}"}, "Three": {"doesNotMatch": "[A-Z]+"}}"#,
                    #""status": 204"#)
            ],
            [
                Probe(
                    "PUT", "/case/insensitive",
                    headers: [("one", "abcd1234"), ("TWO", "thing"), ("tHrEe", "something")], status: 204)
            ]),
        AcceptanceCase(
            "doesNotMatchOnAbsentHeader",
            [
                stub(
                    #""method": "POST", "url": "/some/url", "bodyPatterns": [{"contains": "BODY"}], "headers": {"NoSuchHeader": {"equalTo": "This better not be here"}}"#
                )
            ],
            [Probe("POST", "/some/url", headers: text, body: "BODY", status: 404)]),
        AcceptanceCase(
            "matchesIfRequestContainsHeaderNotSpecified",
            [
                stub(
                    #""method": "GET", "url": "/some/extra/header", "headers": {"ExpectedHeader": {"equalTo": "expected-value"}}"#
                )
            ],
            [
                Probe(
                    "GET", "/some/extra/header",
                    headers: [("ExpectedHeader", "expected-value"), ("UnexpectedHeader", "unexpected-value")],
                    status: 200)
            ]),
        AcceptanceCase(
            "matchesOnUrlPathAndQueryParameters",
            [
                stub(
                    #""method": "GET", "urlPath": "/path-and-query/match", "queryParameters": {"search": {"contains": "WireMock"}, "since": {"equalTo": "2014-10-14"}}"#
                )
            ],
            [Probe("GET", "/path-and-query/match?since=2014-10-14&search=WireMock%20stubbing", status: 200)]),
        AcceptanceCase(
            "doesNotMatchOnUrlPathWhenExtraPathElementsPresent",
            [stub(#""method": "GET", "urlPath": "/matching-path""#)],
            [Probe("GET", "/matching-path/extra", status: 404)]),
        AcceptanceCase(
            "doesNotMatchOnUrlPathWhenPathShorter",
            [stub(#""method": "GET", "urlPath": "/matching-path""#)], [Probe("GET", "/matching", status: 404)]),
        AcceptanceCase(
            "matchesOnUrlPathPatternAndQueryParameters",
            [
                stub(
                    #""method": "GET", "urlPathPattern": "/path(.*)/match", "queryParameters": {"search": {"contains": "WireMock"}, "since": {"equalTo": "2014-10-14"}}"#
                )
            ],
            [Probe("GET", "/path-and-query/match?since=2014-10-14&search=WireMock%20stubbing", status: 200)]),
        AcceptanceCase(
            "doesNotMatchOnUrlPathPatternWhenPathShorter",
            [stub(#""method": "GET", "urlPathPattern": "/matching-path""#)], [Probe("GET", "/matching", status: 404)]),
        AcceptanceCase(
            "doesNotMatchOnUrlPathPatternWhenExtraPathPresent",
            [stub(#""method": "GET", "urlPathPattern": "/matching-path""#)],
            [Probe("GET", "/matching-path/extra", status: 404)]),
        AcceptanceCase(
            "doesNotMatchIfSpecifiedQueryParameterNotInRequest",
            [
                stub(
                    #""method": "GET", "urlPath": "/path-and-query/match", "queryParameters": {"search": {"contains": "WireMock"}}"#
                )
            ],
            [Probe("GET", "/path-and-query/match?wrongParam=wrongVal", status: 404)]),
        AcceptanceCase(
            "doesNotMatchIfSpecifiedAbsentQueryParameterIsPresentInRequest",
            [
                stub(
                    #""method": "GET", "urlPath": "/path-and-query/match", "queryParameters": {"search": {"absent": true}}"#
                )
            ],
            [Probe("GET", "/path-and-query/match?search=presentwhoops", status: 404)]),
        AcceptanceCase(
            "matchesIfSpecifiedAbsentQueryParameterIsAbsentFromRequest",
            [
                stub(
                    #""method": "GET", "urlPath": "/path-and-query/match", "queryParameters": {"search": {"absent": true}}"#
                )
            ],
            [Probe("GET", "/path-and-query/match?anotherparam=present", status: 200)]),
        AcceptanceCase(
            "matchesOnQueryParametersNotContaining",
            [
                stub(
                    #""method": "GET", "urlPath": "/query/match", "queryParameters": {"search": {"doesNotContain": "WireMock"}}"#
                )
            ],
            [
                Probe("GET", "/query/match?search=WireMock%20stubbing", status: 404),
                Probe("GET", "/query/match?search=Other%20stubbing", status: 200),
            ]),
        AcceptanceCase(
            "matchingOnRequestBodyWithTwoRegexes",
            [
                stub(
                    #""method": "PUT", "url": "/match/this/body", "bodyPatterns": [{"matches": ".*Blah.*"}, {"matches": ".*@[0-9]{5}@.*"}]"#
                )
            ],
            [
                Probe("PUT", "/match/this/body", headers: text, body: "Blah...but not the rest", status: 404),
                Probe("PUT", "/match/this/body", headers: text, body: "@12345@...but not the rest", status: 404),
                Probe("PUT", "/match/this/body", headers: text, body: "BlahBlah@56565@Blah", status: 200),
            ]),
        AcceptanceCase(
            "matchingOnRequestBodyWithAContainsAndANegativeRegex",
            [
                stub(
                    #""method": "PUT", "url": "/match/this/body/too", "bodyPatterns": [{"contains": "Blah"}, {"doesNotMatch": ".*[0-9]+.*"}]"#
                )
            ],
            [
                Probe("PUT", "/match/this/body/too", headers: text, body: "Blah12345", status: 404),
                Probe("PUT", "/match/this/body/too", headers: text, body: "BlahBlahBlah", status: 200),
            ]),
        AcceptanceCase(
            "matchingOnRequestBodyWithNotContaining",
            [
                stub(
                    #""method": "PUT", "url": "/match/this/body/too", "bodyPatterns": [{"doesNotContain": "OtherBody"}]"#
                )
            ],
            [
                Probe("PUT", "/match/this/body/too", headers: text, body: "BlahOtherBody12345", status: 404),
                Probe("PUT", "/match/this/body/too", headers: text, body: "BlahBlahBlah", status: 200),
            ]),
        AcceptanceCase(
            "matchingOnRequestBodyWithEqualTo",
            [stub(#""method": "PUT", "url": "/match/this/body/too", "bodyPatterns": [{"equalTo": "BlahBlahBlah"}]"#)],
            [
                Probe("PUT", "/match/this/body/too", headers: text, body: "Blah12345", status: 404),
                Probe("PUT", "/match/this/body/too", headers: text, body: "BlahBlahBlah", status: 200),
            ]),
        AcceptanceCase(
            "matchingOnRequestBodyWithBinaryEqualTo",
            [
                stub(
                    #""method": "POST", "url": "/match/binary", "bodyPatterns": [{"binaryEqualTo": "AQID"}]"#,
                    #""status": 200, "body": "Matched binary""#)
            ],
            [
                Probe("POST", "/match/binary", body: "\u{9}", status: 404),
                Probe("POST", "/match/binary", body: "\u{1}\u{2}\u{3}", status: 200, bodyContains: "Matched binary"),
            ]),
        AcceptanceCase(
            "matchingOnRequestBodyWithAdvancedJsonPath",
            [
                stub(
                    #""method": "POST", "url": "/jsonpath/advanced", "bodyPatterns": [{"matchesJsonPath": {"expression": "$.counter", "equalTo": "123"}}, {"matchesJsonPath": {"expression": "$.wrong", "absent": true}}]"#
                )
            ],
            [
                Probe("POST", "/jsonpath/advanced", headers: json, body: #"{ "counter": 234 }"#, status: 404),
                Probe("POST", "/jsonpath/advanced", headers: json, body: #"{ "counter": 123 }"#, status: 200),
            ]),
        AcceptanceCase(
            "matchingOnRequestBodyWithAdvancedXPath",
            [
                stub(
                    #""method": "POST", "url": "/xpath/advanced", "bodyPatterns": [{"matchesXPath": {"expression": "//counter/text()", "equalTo": "123"}}]"#
                )
            ],
            [
                Probe("POST", "/xpath/advanced", headers: xml, body: "<counter>6666</counter>", status: 404),
                Probe("POST", "/xpath/advanced", headers: xml, body: "<counter>123</counter>", status: 200),
            ]),
        AcceptanceCase(
            "highPriorityMappingMatchedFirst",
            [
                #"{"priority": 10, "request": {"method": "GET", "urlPattern": "/priority/.*"}, "response": {"status": 500}}"#,
                #"{"priority": 2, "request": {"method": "GET", "url": "/priority/resource"}, "response": {"status": 200}}"#,
            ], [Probe("GET", "/priority/resource", status: 200), Probe("GET", "/priority/other", status: 500)]),
        AcceptanceCase(
            "matchingUrlsWithEscapeCharacters",
            [stub(#""method": "GET", "url": "/%26%26The%20Lord%20of%20the%20Rings%26%26""#)],
            [Probe("GET", "/%26%26The%20Lord%20of%20the%20Rings%26%26", status: 200)]),
        AcceptanceCase(
            "matchingUrlPathsWithEscapeCharacters",
            [stub(#""method": "GET", "urlPath": "/%26%26The%20Lord%20of%20the%20Rings%26%26""#)],
            [Probe("GET", "/%26%26The%20Lord%20of%20the%20Rings%26%26", status: 200)]),
        AcceptanceCase(
            "default200ResponseWhenStatusCodeNotSpecified",
            [#"{"request": {"method": "GET", "url": "/default/two-hundred"}, "response": {}}"#],
            [Probe("GET", "/default/two-hundred", status: 200)]),
        AcceptanceCase(
            "stubbingPatch",
            [
                stub(
                    #""method": "PATCH", "url": "/a/registered/resource", "bodyPatterns": [{"equalTo": "some body"}]"#,
                    #""status": 204"#)
            ],
            [Probe("PATCH", "/a/registered/resource", headers: text, body: "some body", status: 204)]),
        AcceptanceCase(
            "stubbingArbitraryMethod",
            [stub(#""method": "KILL", "url": "/some/url""#, #""status": 204"#)],
            [Probe("KILL", "/some/url", status: 204)]),
        AcceptanceCase(
            "doesNotAttemptToMatchXmlBodyWhenStubMappingDoesNotHaveOne",
            [
                stub(#""method": "OPTIONS", "url": "/no-body""#),
                stub(
                    #""method": "POST", "url": "/no-body", "bodyPatterns": [{"equalToXml": "<some-xml />"}]"#,
                    #""status": 201"#),
            ], [Probe("OPTIONS", "/no-body", status: 200)]),
        AcceptanceCase(
            "matchXmlBodyWhenTextNodeIsIgnored",
            [
                stub(
                    ##""method": "POST", "url": "/ignore/my/xml", "bodyPatterns": [{"equalToXml": "<a>#{xmlunit.ignore}</a>", "enablePlaceholders": true, "placeholderOpeningDelimiterRegex": "#\\{", "placeholderClosingDelimiterRegex": "}"}]"##
                )
            ],
            [Probe("POST", "/ignore/my/xml", headers: xml, body: "<a>123</a>", status: 200)]),
        AcceptanceCase(
            "doesNotIgnoreXmlWhenPlaceholderMatchingIsFalse",
            [
                stub(
                    ##""method": "POST", "url": "/do-not-ignore/my/xml", "bodyPatterns": [{"equalToXml": "<a>#{xmlunit.ignore}</a>", "enablePlaceholders": false, "placeholderOpeningDelimiterRegex": "#\\{", "placeholderClosingDelimiterRegex": "}"}]"##
                )
            ],
            [Probe("POST", "/do-not-ignore/my/xml", headers: xml, body: "<a>123</a>", status: 404)]),
        AcceptanceCase(
            "matchesQueryParamsUnencoded",
            [
                stub(
                    #""method": "GET", "urlPath": "/query", "queryParameters": {"param-one": {"equalTo": "one two three ?"}}"#
                )
            ],
            [Probe("GET", "/query?param-one=one%20two%20three%20%3F", status: 200)]),
        AcceptanceCase(
            "matchesQueryParamsWithUnencodedSpacesRequestedAsPluses",
            [
                stub(
                    #""method": "GET", "urlPath": "/query", "queryParameters": {"param-one": {"equalTo": "one two three ?"}}"#
                )
            ],
            [Probe("GET", "/query?param-one=one+two+three+%3F", status: 200)]),
        AcceptanceCase(
            "matchesPathWithSpacesAsPlusesRequestedAsPluses",
            [stub(#""method": "GET", "urlPath": "/path+with+spaces""#)],
            [Probe("GET", "/path+with+spaces", status: 200)]),
        AcceptanceCase(
            "doesNotMatchPathWithEncodedSpacesRequestedAsPluses",
            [stub(#""method": "GET", "urlPath": "/path%20with%20spaces""#)],
            [Probe("GET", "/path+with+spaces", status: 404)]),
        AcceptanceCase(
            "matchesPathWithSpacesAsPlusesRequestedAsEncodedSpaces",
            [stub(#""method": "GET", "urlPath": "/path+with+spaces""#)],
            [Probe("GET", "/path%20with%20spaces", status: 404)]),
        AcceptanceCase(
            "doesNotMatchPathWithEncodedSpacesRequestedAsEncodedSpaces",
            [stub(#""method": "GET", "urlPath": "/path%20with%20spaces""#)],
            [Probe("GET", "/path%20with%20spaces", status: 200)]),
        AcceptanceCase(
            "matchesCookiesUnencoded",
            [stub(#""method": "GET", "urlPath": "/query", "cookies": {"cookie-one": {"equalTo": "one two three ?"}}"#)],
            [Probe("GET", "/query", headers: [("Cookie", "cookie-one=one%20two%20three%20%3F")], status: 200)]),
        AcceptanceCase(
            "matchesFormParamUnencoded",
            [
                stub(
                    #""method": "PUT", "urlPath": "/form", "formParameters": {"key-one": {"equalTo": "one two three ?"}}"#
                )
            ],
            [Probe("PUT", "/form", headers: form, body: "key-one=one%20two%20three%20%3F", status: 200)]),
        AcceptanceCase(
            "matchesFormParamWithKeyInArrayStyle",
            [stub(#""method": "PUT", "urlPath": "/form", "formParameters": {"key[one]": {"equalTo": "firstValue"}}"#)],
            [Probe("PUT", "/form", headers: form, body: "key[one]=firstValue", status: 200)]),
        AcceptanceCase(
            "matchesFormParamForGet",
            [stub(#""method": "GET", "urlPath": "/form", "formParameters": {"key": {"equalTo": "value"}}"#)],
            [Probe("GET", "/form", headers: form, body: "key=value", status: 200), Probe("GET", "/form", status: 404)]),
        AcceptanceCase(
            "matchesFormParamForDelete",
            [stub(#""method": "DELETE", "urlPath": "/form", "formParameters": {"key": {"equalTo": "value"}}"#)],
            [
                Probe("DELETE", "/form", headers: form, body: "key=value", status: 200),
                Probe("DELETE", "/form", status: 404),
            ]),
        AcceptanceCase(
            "matchesWithMultipleFormParams",
            [
                stub(
                    #""method": "PUT", "urlPath": "/form", "formParameters": {"key1": {"equalTo": "value1"}, "key2": {"equalTo": "value2"}}"#
                )
            ],
            [
                Probe("PUT", "/form", headers: form, body: "key1=value1&key2=value2", status: 200),
                Probe("PUT", "/form", headers: form, body: "key1=value1", status: 404),
            ]),
        AcceptanceCase(
            "copesWithInvalidFormEncoding",
            [stub(#""method": "POST", "urlPath": "/form""#)],
            [Probe("POST", "/form", headers: form, body: "%}#", status: 200)]),
        AcceptanceCase(
            "copesWithEmptyRequestHeaderValueWhenMatchingOnEqualTo",
            [stub(#""method": "GET", "urlPath": "/empty-header", "headers": {"X-My-Header": {"equalTo": ""}}"#)],
            [Probe("GET", "/empty-header", headers: [("X-My-Header", "")], status: 200)]),
        AcceptanceCase(
            "defaultsResponseWhenUnspecifiied", [#"{"request": {"method": "ANY", "urlPattern": ".*"}}"#],
            [Probe("GET", "/anything-is-matched", status: 200)]),
        AcceptanceCase(
            "copesWithRequestCharactersThatReallyShouldBeEscapedWhenMatchingOnWholeUrlRegex",
            [stub(#""method": "GET", "urlPattern": "/dodgy-chars.*""#)],
            [Probe("GET", #"/dodgy-chars?filter={"accountid":"1"}"#, status: 200)]),
        AcceptanceCase(
            "copesWithRequestCharactersThatReallyShouldBeEscapedWhenMatchingOnExactUrlPath",
            [stub(#""method": "GET", "urlPath": "/dodgy-chars""#)],
            [Probe("GET", #"/dodgy-chars?filter={"accountid":"1"}"#, status: 200)]),
        AcceptanceCase(
            "matchesQueryCharactersThatStriclyShouldBeEscapedInEitherForm",
            [stub(#""method": "GET", "urlPath": "/test", "queryParameters": {"filter[id]": {"equalTo": "1"}}"#)],
            [Probe("GET", "/test?filter[id]=1", status: 200), Probe("GET", "/test?filter%5Bid%5D=1", status: 200)]),
        AcceptanceCase(
            "matchesInRequestBodyOnLiteralZonedDate",
            [
                stub(
                    #""method": "POST", "url": "/date", "bodyPatterns": [{"matchesJsonPath": {"expression": "$.date", "before": "2021-10-11T00:00:00Z"}}]"#
                )
            ],
            [
                Probe("POST", "/date", headers: json, body: #"{"date": "2021-06-22T23:59:59Z"}"#, status: 200),
                Probe("POST", "/date", headers: json, body: #"{"date": "2121-06-22T23:59:59Z"}"#, status: 404),
            ]),
        AcceptanceCase(
            "matchesQueryParameterOnLiteralZonedDate",
            [
                stub(
                    #""method": "GET", "urlPath": "/match-query-parameter", "queryParameters": {"date": {"before": "2021-10-11T00:00:00Z"}}"#
                )
            ],
            [
                Probe("GET", "/match-query-parameter?date=2021-06-22T23%3A59%3A59Z", status: 200),
                Probe("GET", "/match-query-parameter?date=2121-06-22T23%3A59%3A59Z", status: 404),
                Probe("GET", "/match-query-parameter", status: 404),
            ]),
        AcceptanceCase(
            "matchesWithLogicalAnd",
            [
                stub(
                    #""method": "POST", "url": "/date", "bodyPatterns": [{"matchesJsonPath": {"expression": "$.date", "and": [{"after": "2020-05-01T00:00:00Z"}, {"before": "2021-05-01T00:00:00Z"}]}}]"#
                )
            ],
            [
                Probe("POST", "/date", headers: json, body: #"{"date": "2020-12-31T00:00:00Z"}"#, status: 200),
                Probe("POST", "/date", headers: json, body: #"{"date": "2011-12-31T00:00:00Z"}"#, status: 404),
            ]),
        AcceptanceCase(
            "matchesQueryParametersWithLogicalOr",
            [
                stub(
                    #""method": "GET", "urlPath": "/or", "queryParameters": {"q": {"or": [{"equalTo": "thingtofind"}, {"absent": true}]}}"#
                )
            ],
            [
                Probe("GET", "/or", status: 200), Probe("GET", "/or?q=thingtofind", status: 200),
                Probe("GET", "/or?q=wrong", status: 404),
            ]),
        AcceptanceCase(
            "matchesMultipleQueryParametersUsingExactMatch",
            [
                stub(
                    #""method": "GET", "urlPath": "/match", "queryParameters": {"q": {"hasExactly": [{"equalTo": "1"}, {"equalTo": "2"}, {"equalTo": "3"}]}}"#
                )
            ],
            exactQuery.map { Probe("GET", "/match" + $0, status: 200) }
                + exactQueryMisses.map { Probe("GET", "/match" + $0, status: 404) }),
        AcceptanceCase(
            "matchesMultipleQueryParametersUsingExactMatchWithMultipleValuePatterns",
            [
                stub(
                    #""method": "GET", "urlPath": "/match", "queryParameters": {"q": {"hasExactly": [{"equalTo": "1"}, {"doesNotContain": "7"}, {"equalTo": "3"}]}}"#
                )
            ],
            exactQuery.map { Probe("GET", "/match" + $0, status: 200) }
                + exactQueryMisses.map { Probe("GET", "/match" + $0, status: 404) }),
        AcceptanceCase(
            "matchesMultipleQueryParametersUsingIncludeMatch",
            [
                stub(
                    #""method": "GET", "urlPath": "/match", "queryParameters": {"q": {"includes": [{"equalTo": "1"}, {"equalTo": "2"}, {"equalTo": "3"}]}}"#
                )
            ],
            (exactQuery + ["?q=1&q=2&q=3&q=4"]).map { Probe("GET", "/match" + $0, status: 200) }
                + ["", "?q=wrong", "?q=1&q=4&q=5&q=6", "?q=1&q=1&q=1&q=1"].map {
                    Probe("GET", "/match" + $0, status: 404)
                }),
        AcceptanceCase(
            "matchesMultipleValuesForHeaderUsingExactMatch",
            [
                stub(
                    #""method": "GET", "urlPath": "/match", "headers": {"q": {"hasExactly": [{"equalTo": "1"}, {"equalTo": "2"}, {"equalTo": "3"}]}}"#
                )
            ],
            [
                Probe("GET", "/match", headers: [("q", "1"), ("q", "2"), ("q", "3")], status: 200),
                Probe(
                    "GET", "/match", headers: [("q", "1"), ("q", "4"), ("q", "5"), ("q", "6"), ("q", "5")], status: 404),
            ]),
        AcceptanceCase(
            "matchesMultipleValuesForHeaderUsingIncludesMatch",
            [
                stub(
                    #""method": "GET", "urlPath": "/match", "headers": {"q": {"includes": [{"equalTo": "1"}, {"equalTo": "2"}, {"equalTo": "3"}]}}"#
                )
            ],
            [
                Probe(
                    "GET", "/match", headers: [("q", "1"), ("q", "2"), ("q", "3"), ("q", "4"), ("q", "5")], status: 200)
            ]),
        AcceptanceCase(
            "matchesMultipleValuesForHeaderUsingIncludesMatchReturnsNotFound",
            [
                stub(
                    #""method": "GET", "urlPath": "/match", "headers": {"q": {"includes": [{"equalTo": "1"}, {"equalTo": "8"}, {"equalTo": "3"}]}}"#
                )
            ],
            [
                Probe(
                    "GET", "/match", headers: [("q", "1"), ("q", "2"), ("q", "3"), ("q", "4"), ("q", "5")], status: 404)
            ]),
        AcceptanceCase(
            "matchesNoValuesForHeaders",
            [stub(#""method": "GET", "urlPath": "/match", "headers": {"q": {"hasExactly": []}}"#)],
            [Probe("GET", "/match", status: 200), Probe("GET", "/match", headers: [("q", "1")], status: 404)]),
        AcceptanceCase(
            "matchesHeadersWithLogicalOr",
            [
                stub(
                    #""method": "GET", "urlPath": "/or", "headers": {"X-Maybe": {"or": [{"equalTo": "one"}, {"contains": "two"}, {"matches": "thre{2}"}, {"absent": true}]}}"#
                )
            ],
            [
                Probe("GET", "/or", status: 200), Probe("GET", "/or", headers: [("X-Maybe", "one")], status: 200),
                Probe("GET", "/or", headers: [("X-Maybe", "two222")], status: 200),
                Probe("GET", "/or", headers: [("X-Maybe", "three")], status: 200),
                Probe("GET", "/or", headers: [("X-Maybe", "wrong")], status: 404),
            ]),
        AcceptanceCase(
            "jsonResponseWithStringValue",
            [
                stub(
                    #""method": "GET", "url": "/json-from-string""#,
                    #""status": 200, "jsonBody": {"message": "Json From String"}, "headers": {"Content-Type": "application/json"}"#
                )
            ],
            [Probe("GET", "/json-from-string", status: 200, bodyContains: "\"Json From String\"")]),
        AcceptanceCase(
            "queryParamCanBeMatchedAsNotAbsent",
            [stub(#""method": "GET", "urlPath": "/search", "queryParameters": {"q": {"not": {"absent": true}}}"#)],
            [Probe("GET", "/search?q=something", status: 200), Probe("GET", "/search", status: 404)]),
    ]

    @Test(arguments: cases)
    func wireMockCase(_ example: AcceptanceCase) throws {
        try example.run()
    }
}
