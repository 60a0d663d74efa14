import HTTPCore
import JSONKit
import LinearRegex
import TestSupport
import Testing

@testable import MockEngine
@testable import StubServerKit

/// Response templating measured against WireMock: cases carried over as data (a response,
/// a request, the answer WireMock's test asserts) from WireMock's tests (Apache-2.0), each
/// citing the test it came from: `ResponseTemplateTransformerTest` (RTT),
/// `ResponseTemplatingAcceptanceTest` (RTA), and the helpers' `MathsHelperTest` (MHT),
/// `RegexExtractHelperTest` (REHT), `SystemValueHelperTest` (SVHT), `HostnameHelperTest`,
/// `ParseDateHelperTest` (PDHT) and `HandlebarsCurrentDateHelperTest` (HCDH) in
/// `src/test/java/com/github/tomakehurst/wiremock/[extension/responsetemplating/]`. Every case
/// runs through a stub folder and a served request. The test client always sends
/// `Host: 127.0.0.1`, so the `requestLine` cases expect that host where WireMock's mock request
/// set another.
@Suite struct TemplatingParityTests {
    enum Expectation: Sendable {
        case body(String)
        /// The whole body matches the regular expression.
        case pattern(String)
        case header(String, String)
        case status(Int, bodyContaining: String)
    }

    struct Case: Sendable, CustomStringConvertible {
        let source: String
        var request = #"{"urlPathPattern": "/.*"}"#
        let response: String
        var method = "GET"
        var target = "/"
        var headers: [(String, String)] = []
        var body = ""
        var global = false
        var files: [(String, String)] = []
        let expected: Expectation

        var description: String { source }
    }

    static let cases: [Case] = [
        Case(
            source: "RTT.queryParameters",
            response:
                #"{"body": "Multi 1: {{request.query.multi_param.[0]}}, Multi 2: {{request.query.multi_param.[1]}}, Single 1: {{request.query.single-param}}"}"#,
            target: "/things?multi_param=one&multi_param=two&single-param=1234",
            expected: .body("Multi 1: one, Multi 2: two, Single 1: 1234")),
        Case(
            source: "RTT.showsNothingWhenNoQueryParamsPresent",
            response: #"{"body": "{{request.query.multi_param.[0]}}"}"#,
            target: "/things", expected: .body("")),
        Case(
            source: "RTT.requestHeaders",
            response:
                #"{"body": "Request ID: {{request.headers.X-Request-Id}}, Awkward named header: {{request.headers.[123$%$^&__why_o_why]}}"}"#,
            target: "/things", headers: [("X-Request-Id", "req-id-1234"), ("123$%$^&__why_o_why", "foundit")],
            expected: .body("Request ID: req-id-1234, Awkward named header: foundit")),
        Case(
            source: "RTT.requestHeadersCaseInsensitive",
            response:
                #"{"body": "Case key header: {{request.headers.case-key-123}}, With brackets: {{request.headers.[case-key-123]}}"}"#,
            target: "/things", headers: [("Case-KEY-123", "foundit")],
            expected: .body("Case key header: foundit, With brackets: foundit")),
        Case(
            source: "RTT.cookies",
            response:
                #"{"body": "session: {{request.cookies.session}}, Awkward named cookie: {{request.cookies.[)((**#$@#]}}"}"#,
            target: "/things", headers: [("Cookie", "session=session-1234; )((**#$@#=foundit")],
            expected: .body("session: session-1234, Awkward named cookie: foundit")),
        Case(
            source: "RTT.multiValueCookies",
            response:
                #"{"body": "{{request.cookies.multi}}, {{request.cookies.multi.[0]}}, {{request.cookies.multi.[1]}}"}"#,
            target: "/things", headers: [("Cookie", "multi=one; multi=two")], expected: .body("one, one, two")),
        Case(
            source: "RTT.urlPath", response: #"{"body": "Path: {{request.path}}"}"#, target: "/the/entire/path",
            expected: .body("Path: /the/entire/path")),
        Case(
            source: "RTT.urlPathNodes",
            response: #"{"body": "First: {{request.path.[0]}}, Last: {{request.path.[2]}}"}"#,
            target: "/the/entire/path", expected: .body("First: the, Last: path")),
        Case(
            source: "RTT.urlPathNodesForRootPath", response: #"{"body": "{{request.path.[0]}}"}"#, target: "/",
            expected: .body("")),
        Case(
            source: "RTT.fullUrl", response: #"{"body": "URL: {{{request.url}}}"}"#,
            target: "/the/entire/path?query1=one&query2=two",
            expected: .body("URL: /the/entire/path?query1=one&query2=two")),
        Case(
            source: "RTT.clientIp", response: #"{"body": "IP: {{{request.clientIp}}}"}"#, target: "/",
            expected: .body("IP: 127.0.0.1")),
        Case(
            source: "RTT.templatizeBodyFile", response: #"{"bodyFileName": "/greet-{{request.query.name}}.txt"}"#,
            target: "/the/entire/path?name=Ram", files: [("greet-Ram.txt", "Hello Ram")], expected: .body("Hello Ram")),
        Case(
            source: "RTT.requestBody", response: #"{"body": "Body: {{{request.body}}}"}"#, method: "POST",
            target: "/things", body: "All of the body content", expected: .body("Body: All of the body content")),
        Case(
            source: "RTT.singleValueTemplatedResponseHeaders",
            response: #"{"headers": {"X-Correlation-Id": "{{request.headers.X-Correlation-Id}}"}}"#, target: "/things",
            headers: [("X-Correlation-Id", "12345")], expected: .header("X-Correlation-Id", "12345")),
        Case(
            source: "RTT.multiValueTemplatedResponseHeaders",
            response:
                #"{"headers": {"X-Correlation-Id": ["{{request.headers.X-Correlation-Id-1}}", "{{request.headers.X-Correlation-Id-2}}"]}}"#,
            target: "/things", headers: [("X-Correlation-Id-1", "12345"), ("X-Correlation-Id-2", "56789")],
            expected: .header("X-Correlation-Id", "12345, 56789")),
        Case(
            source: "RTT.stringHelper", response: #"{"body": "{{{ capitalize request.body }}}"}"#, method: "POST",
            target: "/things", body: "some text", expected: .body("Some Text")),
        Case(
            source: "RTT.conditionalHelper",
            response: #"{"body": "{{#eq request.headers.X-Thing.[0] '1'}}ONE{{else}}MANY{{/eq}}"}"#, target: "/things",
            headers: [("X-Thing", "1")], expected: .body("ONE")),
        Case(
            source: "RTT.areConditionalHelpersLoaded", response: #"{"body": "{{{eq 5 5 yes='y' no='n'}}}"}"#,
            expected: .body("y")),
        Case(
            source: "RTT.jsonPathValueDefaultsToEmptyString", response: #"{"body": "{{jsonPath request.body '$.b'}}"}"#,
            method: "POST", target: "/json", body: #"{"a": "1"}"#, expected: .body("")),
        Case(
            source: "RTT.jsonPathValueDefaultCanBeProvided",
            response: #"{"body": "{{jsonPath request.body '$.b' default='foo'}}"}"#, method: "POST", target: "/json",
            body: #"{"a": "1"}"#, expected: .body("foo")),
        Case(
            source: "RTT.transformerParametersAreAppliedToTemplate",
            response:
                #"{"body": "{\"test\": \"{{parameters.variable}}\"}", "transformerParameters": {"variable": "some.value"}}"#,
            expected: .body(#"{"test": "some.value"}"#)),
        Case(
            source: "RTT.unknownTransformerParametersAreNotCausingIssues",
            response:
                #"{"body": "{\"test1\": \"{{parameters.variable}}\", \"test2\": \"{{parameters.unknown}}\"}", "transformerParameters": {"variable": "some.value"}}"#,
            expected: .body(#"{"test1": "some.value", "test2": ""}"#)),
        Case(
            source: "RTT.requestLineHost", response: #"{"body": "host: {{{request.requestLine.host}}}"}"#,
            expected: .body("host: 127.0.0.1")),
        Case(
            source: "RTT.requestLinePort", response: #"{"body": "port: {{{request.requestLine.port}}}"}"#,
            expected: .body("port: 80")),
        Case(
            source: "RTT.requestLinePath", response: #"{"body": "path: {{{request.path}}}"}"#,
            target: "/the/entire/path?query1=one&query2=two", expected: .body("path: /the/entire/path")),
        Case(
            source: "RTT.requestLineBaseUrlNonStandardPort", response: #"{"body": "baseUrl: {{{request.baseUrl}}}"}"#,
            expected: .body("baseUrl: http://127.0.0.1")),
        Case(
            source: "RTT.requestLinePathSegment", response: #"{"body": "path segments: {{{request.pathSegments}}}"}"#,
            target: "/the/entire/path?query1=one", expected: .body("path segments: /the/entire/path")),
        Case(
            source: "RTT.requestLinePathSegment0",
            response: #"{"body": "path segments 0: {{{request.pathSegments.[0]}}}"}"#, target: "/the/entire/path",
            expected: .body("path segments 0: the")),
        Case(
            source: "RTT.requestIdIsAvailableIdInTheTemplateModel", response: #"{"body": "{{request.id}}"}"#,
            expected: .pattern("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")),
        Case(
            source: "RTT.trimContent",
            response: #"{"body": "{{#trim}}\n{\n  \"data\": \"spaced out JSON\"\n}\n     {{/trim}}"}"#,
            expected: .body("{\n  \"data\": \"spaced out JSON\"\n}")),
        Case(source: "RTT.trimValue", response: #"{"body": "{{trim '   stuff  '}}"}"#, expected: .body("stuff")),
        Case(
            source: "RTT.base64EncodeContent", response: #"{"body": "{{#base64}}hello{{/base64}}"}"#,
            expected: .body("aGVsbG8=")),
        Case(
            source: "RTT.base64EncodeValue", response: #"{"body": "{{{base64 'hello'}}}"}"#, expected: .body("aGVsbG8=")
        ),
        Case(
            source: "RTT.base64EncodeValueWithoutPadding", response: #"{"body": "{{{base64 'hello' padding=false}}}"}"#,
            expected: .body("aGVsbG8")),
        Case(
            source: "RTT.base64DecodeValue", response: #"{"body": "{{{base64 'aGVsbG8=' decode=true}}}"}"#,
            expected: .body("hello")),
        Case(
            source: "RTT.base64DecodeValueWithoutPadding", response: #"{"body": "{{{base64 'aGVsbG8' decode=true}}}"}"#,
            expected: .body("hello")),
        Case(
            source: "RTT.urlEncodeValue", response: #"{"body": "{{{urlEncode 'one two'}}}"}"#,
            expected: .body("one+two")),
        Case(
            source: "RTT.urlDecodeValue", response: #"{"body": "{{{urlEncode 'one+two' decode=true}}}"}"#,
            expected: .body("one two")),
        Case(
            source: "RTT.extractFormValue",
            response: #"{"body": "{{{formData request.body 'form'}}}{{{form.item2}}}"}"#,
            method: "POST", body: "item1=one&item2=two%202&item3=three%203", expected: .body("two%202")),
        Case(
            source: "RTT.extractFormMultiValue",
            response: #"{"body": "{{{formData request.body 'form'}}}{{form.item.1}}"}"#,
            method: "POST", body: "item=1&item=two%202&item=3", expected: .body("two%202")),
        Case(
            source: "RTT.extractFormValueWithUrlDecoding",
            response: #"{"body": "{{{formData request.body 'form' urlDecode=true}}}{{{form.item2}}}"}"#, method: "POST",
            body: "item1=one&item2=two%202&item3=three%203", expected: .body("two 2")),
        Case(
            source: "RTT.extractSingleRegexValue", response: #"{"body": "{{regexExtract request.body '[A-Z]+'}}"}"#,
            method: "POST", body: "abc-DEF-123", expected: .body("DEF")),
        Case(
            source: "RTT.extractMultipleRegexValues",
            response:
                #"{"body": "{{regexExtract request.body '([a-z]+)-([A-Z]+)-([0-9]+)' 'parts'}}{{parts.0}},{{parts.1}},{{parts.2}}"}"#,
            method: "POST", body: "abc-DEF-123", expected: .body("abc,DEF,123")),
        Case(
            source: "REHT.canExtractSingleRegexMatch",
            response: #"{"body": "{\"test\": \"{{regexExtract request.path.[1] '([A-Za-z]+)'}}\"}"}"#,
            target: "/api/abc,def,ghi", expected: .body(#"{"test": "abc"}"#)),
        Case(
            source: "REHT.canExtractMultipleRegexMatches",
            response:
                #"{"body": "{\"test\": \"{{regexExtract request.path.[1] '([A-Za-z]+)' 'parts'}}{{#each parts}}{{this}} {{/each}}\"}"}"#,
            target: "/api/abc,def,ghi", expected: .body(#"{"test": "abc def ghi "}"#)),
        Case(
            source: "REHT.noMatchErrorWhenNoRegexMatch",
            response: #"{"body": "{{{regexExtract request.path '([A-Za-z]+)'}}}"}"#,
            target: "/123/456,789,900", expected: .body("[ERROR: Nothing matched ([A-Za-z]+)]")),
        Case(
            source: "RTT.returnsReasonableDefaultWhenRegexExtractDoesNotMatchAnything",
            response: #"{"body": "{{{regexExtract 'abc' '[0-9]+'}}}"}"#,
            expected: .body("[ERROR: Nothing matched [0-9]+]")),
        Case(
            source: "RTT.regexExtractSupportsSpecifyingADefaultForWhenNothingMatches",
            response: #"{"body": "{{regexExtract 'abc' '[0-9]+' default='my default value'}}"}"#,
            expected: .body("my default value")),
        Case(source: "RTT.calculateStringSize", response: #"{"body": "{{size 'abcde'}}"}"#, expected: .body("5")),
        Case(
            source: "RTT.calculateListSize", response: #"{"body": "{{size request.query.things}}"}"#,
            target: "/stuff?things=1&things=2&things=3&things=4", expected: .body("4")),
        Case(
            source: "RTT.calculateMapSize", response: #"{"body": "{{size request.query}}"}"#,
            target: "/stuff?one=1&two=2&three=3", expected: .body("3")),
        Case(
            source: "RTT.firstListElement", response: #"{"body": "{{request.query.things.first}}"}"#,
            target: "/stuff?things=1&things=2&things=3&things=4", expected: .body("1")),
        Case(
            source: "RTT.lastListElement", response: #"{"body": "{{request.query.things.last}}"}"#,
            target: "/stuff?things=1&things=2&things=3&things=4", expected: .body("4")),
        Case(
            source: "RTT.listElementOffsetFromEnd", response: #"{"body": "{{request.query.things.[-2]}}"}"#,
            target: "/stuff?things=1&things=2&things=3&things=4", expected: .body("2")),
        Case(
            source: "RTT.listElementOffsetFromEnd2", response: #"{"body": "{{request.query.things.[-1]}}"}"#,
            target: "/stuff?things=1&things=2&things=3&things=4", expected: .body("3")),
        Case(
            source: "RTT.picksRandomElementFromLiteralList", response: #"{"body": "{{{pickRandom '1' '2' '3'}}}"}"#,
            expected: .pattern("[123]")),
        Case(
            source: "RTT.picksRandomElementFromListVariable",
            response: #"{"body": "{{{pickRandom (jsonPath request.body '$.names')}}}"}"#, method: "POST",
            body: #"{ "names": ["Rob", "Tom", "Gus"] }"#, expected: .pattern("Rob|Tom|Gus")),
        Case(
            source: "RTT.picksRandomObjectFromListVariable",
            response:
                #"{"body": "{{val (parseJson '{\"level\":1}') assign='one'}}{{val (parseJson '{\"level\":2}') assign='two'}}{{lookup (pickRandom (array one two)) 'level'}}"}"#,
            expected: .pattern("[12]")),
        Case(
            source: "RTT.picksMultipleRandomItemsFromListVariableWhenCountSpecified",
            response:
                #"{"body": "{{val (pickRandom (array 1 2 3 4 5) count=3) assign='result'}}{{result.0}} {{result.1}} {{result.2}} size={{size result}}"}"#,
            expected: .pattern("[1-5] [1-5] [1-5] size=3")),
        Case(
            source: "RTT.picksAsManyRandomItemsAsPossibleFromListVariableWhenCountSpecifiedHigherThanItemCount",
            response: #"{"body": "{{val (pickRandom (array 1 2 3 4 5) count=8) assign='result'}}{{size result}}"}"#,
            expected: .body("5")),
        Case(
            source: "RTT.squareBracketedRequestParameters1",
            response: #"{"body": "{{lookup request.query 'things[2]'}}"}"#,
            target: "/stuff?things%5B1%5D=one&things%5B2%5D=two&things%5B3%5D=three", expected: .body("two")),
        Case(
            source: "RTT.squareBracketedRequestParameters2",
            response: #"{"body": "Order ID: {{lookup request.query 'filter[order_id]'}}"}"#,
            target: "/stuff?filter%5Border_id%5D=123", expected: .body("Order ID: 123")),
        Case(
            source: "RTT.correctlyRendersWhenContentExistsEitherSideOfTemplate",
            response: #"{"body": "Start \n\n {{request.query.one}} middle {{{request.query.two}}} end\n"}"#,
            target: "/stuff?one=1&two=2", expected: .body("Start \n\n 1 middle 2 end\n")),
        Case(
            source: "RTT.arrayStyleQueryParametersCanBeResolvedViaLookupHelper",
            response:
                #"{"body": "1: {{lookup request.query 'ids[].0'}}, 2: {{lookup request.query 'ids[].1'}}, 3: {{lookup request.query 'ids[].2'}}"}"#,
            target: "/things?ids%5B%5D=111&ids%5B%5D=222&ids%5B%5D=333", expected: .body("1: 111, 2: 222, 3: 333")),
        Case(
            source: "RTT.generatesARandomInt", response: #"{"body": "{{randomInt lower='5' upper='9'}}"}"#,
            expected: .pattern("[5-9]")),
        Case(
            source: "RTT.generatesARandomDecimal", response: #"{"body": "{{randomDecimal lower=-10.1 upper=-0.9}}"}"#,
            expected: .pattern("-[0-9.E-]+")),
        Case(
            source: "RTT.generatesARangeOfNumbersInAnArray",
            response: #"{"body": "{{range 3 8}} {{range '3' '8'}} {{range -2 2}}"}"#,
            expected: .body("[3, 4, 5, 6, 7, 8] [3, 4, 5, 6, 7, 8] [-2, -1, 0, 1, 2]")),
        Case(
            source: "RTT.generatesARangeOfNumbersInAnArray (error)", response: #"{"body": "{{{range 555}}}"}"#,
            expected: .body("[ERROR: The range helper requires both lower and upper bounds as integer parameters]")),
        Case(
            source: "RTT.generatesAnArrayLiteral", response: #"{"body": "{{array 1 'two' true}} {{array}}"}"#,
            expected: .body("[1, two, true] []")),
        Case(
            source: "RTT.addsArrayItemWthSpecifiedIntegerPosition",
            response: #"{"body": "{{arrayAdd (array 1 'three') 2 position=1}}"}"#, expected: .body("[1, 2, three]")),
        Case(
            source: "RTT.addsArrayItemWthSpecifiedStartPosition",
            response: #"{"body": "{{arrayAdd (array 1 'three') 2 position='start'}}"}"#,
            expected: .body("[2, 1, three]")),
        Case(
            source: "RTT.addsArrayItemWithNoPositionAddsToEnd",
            response: #"{"body": "{{arrayAdd (array 1 'three') 2}}"}"#,
            expected: .body("[1, three, 2]")),
        Case(
            source: "RTT.addsArrayItemWithNegativePositionThrowsAnError",
            response: #"{"body": "{{{arrayAdd (array 1 'three') 2 position=-2}}}"}"#,
            expected: .body(
                "[ERROR: position must be greater than or equal to 0 and less than or equal to the size of the list]")),
        Case(
            source: "RTT.addsArrayItemWithMissingValueToAdd",
            response: #"{"body": "{{{arrayAdd (array 1 'three') position=1}}}"}"#,
            expected: .body("[ERROR: Missing required parameter: additional value to add to list]")),
        Case(
            source: "RTT.deletesArrayItemWthSpecifiedIntegerPosition",
            response: #"{"body": "{{arrayRemove (array 1 2 'three') position=1}}"}"#, expected: .body("[1, three]")),
        Case(
            source: "RTT.deletesArrayItemWithNoPositionRemovesFromEnd",
            response: #"{"body": "{{arrayRemove (array 1 2 'three') }}"}"#, expected: .body("[1, 2]")),
        Case(
            source: "RTT.parsesJsonLiteralToAMapOfMapsVariable",
            response:
                #"{"body": "{{#parseJson 'parsedObj'}}\n{\n  \"name\": \"transformed\"\n}\n{{/parseJson}}\n{{parsedObj.name}}"}"#,
            expected: .body("\ntransformed")),
        Case(
            source: "RTT.parsesJsonVariableToAndReturns",
            response:
                #"{"body": "{{#assign 'json'}}{\"name\": \"transformed\"}{{/assign}}{{lookup (parseJson json) 'name'}}"}"#,
            expected: .body("transformed")),
        Case(
            source: "RTT.parseJsonReportsInvalidParameterErrors", response: #"{"body": "{{{parseJson}}}"}"#,
            expected: .body("[ERROR: Missing required JSON string parameter]")),
        Case(
            source: "RTT.conditionalBranchingOnStringMatchesRegexInline",
            response:
                #"{"body": "{{#if (matches '123' '[0-9]+')}}YES{{/if}}|{{#if (matches 'abc' '[0-9]+')}}YES{{/if}}"}"#,
            expected: .body("YES|")),
        Case(
            source: "RTT.conditionalBranchingOnStringMatchesRegexBlock",
            response:
                #"{"body": "{{#matches '123' '[0-9]+'}}YES{{/matches}}|{{#matches 'abc' '[0-9]+'}}YES{{/matches}}"}"#,
            expected: .body("YES|")),
        Case(
            source: "RTT.matchesRegexReturnsErrorIfMissingParameter",
            response: #"{"body": "{{{matches '123'}}}"}"#,
            expected: .body("[ERROR: You must specify the string to be matched and the regular expression]")),
        Case(
            source: "RTT.conditionalBranchingOnStringContainsInline",
            response:
                #"{"body": "{{#if (contains 'abcde' 'abc')}}YES{{/if}}|{{#if (contains 'abcde' '123')}}YES{{/if}}"}"#,
            expected: .body("YES|")),
        Case(
            source: "RTT.stringContainsCopesWithNullString",
            response: #"{"body": "{{#if (contains 'abcde' request.query.nonexist)}}YES{{/if}}"}"#, expected: .body("")),
        Case(
            source: "RTT.conditionalBranchingOnArrayContainsBlock",
            response:
                #"{"body": "{{#contains (array 'a' 'b' 'c') 'a'}}YES{{/contains}}|{{#contains (array 'a' 'b' 'c') 'z'}}YES{{/contains}}"}"#,
            expected: .body("YES|")),
        Case(
            source: "RTT.mathematicalOperations",
            response:
                #"{"body": "{{math 1 '+' 2}} {{math 4 '-' 2}} {{math 2 '*' 3}} {{math 8 '/' 2}} {{math 10 '%' 3}}"}"#,
            expected: .body("3 2 6 4 1")),
        Case(
            source: "RTT.dateTruncation",
            response: #"{"body": "{{date (truncateDate (parseDate '2021-06-29T11:22:33Z') 'first hour of day')}}"}"#,
            expected: .body("2021-06-29T00:00:00Z")),
        Case(
            source: "RTT.formatDecimalAsCurrencyWithLocale",
            response: #"{"body": "{{{numberFormat 123.456 'currency' 'en_GB'}}}"}"#, expected: .body("£123.46")),
        Case(
            source: "RTT.canTruncateARenderableDateToFirstOfMonth",
            response: #"{"body": "{{date (truncateDate (now) 'first day of month') format='yyyy-MM-dd'}}"}"#,
            expected: .pattern("[0-9]{4}-[0-9]{2}-01")),
        Case(
            source: "RTT.canTruncateARenderableDateToFirstHourOfDay",
            response:
                #"{"body": "{{date (truncateDate (now) 'first hour of day') format='yyyy-MM-dd\\'T\\'HH:mm'}}"}"#,
            expected: .pattern("[0-9]{4}-[0-9]{2}-[0-9]{2}T00:00")),
        Case(
            source: "SVHT.getForbiddenEnvironmentVariableShouldReturnError (petmock's default policy)",
            response: #"{"body": "{{{systemValue key=request.query.key type='ENVIRONMENT'}}}"}"#,
            target: "/?key=TEST_VAR", expected: .pattern("\\[ERROR: Access to TEST_VAR is denied.*\\]")),
        Case(
            source: "SVHT.getNonExistingEnvironmentVariableWithDefault (a permitted key)",
            response: #"{"body": "{{systemValue key='wiremock.petkit.unset' type='ENVIRONMENT' default='DEFAULT'}}"}"#,
            expected: .body("DEFAULT")),
        Case(
            source: "HostnameHelperTest.generatesHostname", response: #"{"body": "{{hostname}}"}"#,
            expected: .pattern("[A-Za-z0-9.-]+")),
        Case(
            source: "RTT.canParseLocalYearMonth",
            response:
                #"{"body": "{{date (parseDate '2021-10' format='yyyy-MM') offset='+32 days' format='yyyy-MM'}}"}"#,
            expected: .body("2021-11")),
        Case(
            source: "RTT.canParseLocalYear",
            response: #"{"body": "{{date (parseDate '2021' format='yyyy') format='yyyy-MM'}}"}"#,
            expected: .body("2021-01")),
        Case(
            source: "RTT.valHelperReturnsDefaultsNullValue",
            response:
                #"{"body": "{{val request.query.nonexist or='123'}} {{val request.query.nonexist default='123'}}"}"#,
            expected: .body("123 123")),
        Case(
            source: "RTT.valHelperReturnsValueIfNotNullValue",
            response:
                #"{"body": "{{val 'exists'}}|{{val null}}|{{val 'exists' or='123'}}|{{val (array 1 2 3) default='123'}}"}"#,
            expected: .body("exists||exists|[1, 2, 3]")),
        Case(
            source: "RTT.valHelperCanAssignValueToNamedVariable",
            response:
                #"{"body": "{{val null or='other' assign='myVar'}}{{myVar}} {{val (array 1 2 3) assign='list'}}{{arrayJoin '*' list}}"}"#,
            expected: .body("other 1*2*3")),
        Case(
            source: "RTT.valHelperCanAssignValueToNamedVariableAndMaintainsType",
            response: #"{"body": "{{val 10 assign='myVar'}}{{#lt myVar 20}}Less Than{{else}}More Than{{/lt}}"}"#,
            expected: .body("Less Than")),
        Case(
            source: "RTT.joinWithObjectBody",
            response:
                #"{"body": "{{#parseJson 'myThings'}}[{ \"id\": 1, \"name\": \"One\" }, { \"id\": 2, \"name\": \"Two\" }]{{/parseJson}}[{{#arrayJoin ',' myThings as |item|}}{\"name{{item.id}}\": \"{{item.name}}\"}{{/arrayJoin}}]"}"#,
            expected: .body(#"[{"name1": "One"},{"name2": "Two"}]"#)),
        Case(
            source: "RTT.joinWithNumbersListedAndPrefixAndSuffix",
            response: #"{"body": "{{arrayJoin ',' 1 2 3  prefix='p..' suffix='..s'}}"}"#, expected: .body("p..1,2,3..s")
        ),
        Case(
            source: "RTT.joinWithNoSeparatorShouldReturnError",
            response: #"{"body": "{{{arrayJoin (array 'One' 'Two' 'Three')}}}"}"#,
            expected: .body("[ERROR: Separator parameter must be a String]")),
        Case(
            source: "RTT.joinWithNoParameterShouldReturnError", response: #"{"body": "{{{arrayJoin ','}}}"}"#,
            expected: .body("[ERROR: The parameter must be list]")),
        Case(
            source: "RTT.joinWithDifferentSeparators",
            response: #"{"body": "{{arrayJoin (pickRandom ':') (array 'One' 'Two' 'Three')}}"}"#,
            expected: .body("One:Two:Three")),
        // MathsHelperTest (MHT), through templates
        Case(
            source: "MHT.returnsAnErrorIfNotExactlyTwoParameters", response: #"{"body": "{{{math 5 '+'}}}"}"#,
            expected: .body(
                "[ERROR: All maths functions require two operands and an operator as parameters e.g. 3 '+' 2]")),
        Case(
            source: "MHT.returnsAnErrorIfOperatorNotRecognised", response: #"{"body": "{{{math 2 '&' 3}}}"}"#,
            expected: .body("[ERROR: & is not a valid mathematical operator]")),
        Case(source: "MHT.addsTwoIntegers", response: #"{"body": "{{math 2 '+' 3}}"}"#, expected: .body("5")),
        Case(
            source: "MHT.addsTwoLongs", response: #"{"body": "{{math 2147483648 '+' 2147483648}}"}"#,
            expected: .body("4294967296")),
        Case(source: "MHT.addsAStringAndInteger", response: #"{"body": "{{math '2' '+' 3}}"}"#, expected: .body("5")),
        Case(source: "MHT.addsADoubleAndInteger", response: #"{"body": "{{math 0.5 '+' 3}}"}"#, expected: .body("3.5")),
        Case(
            source: "MHT.addsAStringDoubleAndDouble", response: #"{"body": "{{math '0.25' '+' '0.34'}}"}"#,
            expected: .body("0.59")),
        Case(source: "MHT.subtractsTwoIntegers", response: #"{"body": "{{math 10 '-' 3}}"}"#, expected: .body("7")),
        Case(
            source: "MHT.multipliesTwoIntegers", response: #"{"body": "{{math 10 '*' 3}} {{math 10 'x' 3}}"}"#,
            expected: .body("30 30")),
        Case(source: "MHT.dividesTwoIntegers", response: #"{"body": "{{math 15 '/' 3}}"}"#, expected: .body("5")),
        Case(source: "MHT.modsTwoIntegers", response: #"{"body": "{{math 11 '%' 3}}"}"#, expected: .body("2")),
        Case(
            source: "MHT.coercesEpochFormattedRenderableDateParameterCorrectly",
            response: #"{"body": "{{math (parseDate '1663258226792' format='epoch') '+' 0}}"}"#,
            expected: .body("1663258226792")),
        // ParseDateHelperTest (PDHT), rendered in ISO 8601
        Case(
            source: "PDHT.parsesAnISO8601DateWhenNoFormatSpecified",
            response: #"{"body": "{{parseDate '2018-05-01T01:02:03Z'}}"}"#, expected: .body("2018-05-01T01:02:03Z")),
        Case(
            source: "PDHT.parsesAnRFC1123DateWhenNoFormatSpecified",
            response: #"{"body": "{{parseDate 'Tue, 01 Jun 2021 15:16:17 GMT'}}"}"#,
            expected: .body("2021-06-01T15:16:17Z")),
        Case(
            source: "PDHT.parsesDateWithSuppliedFormat",
            response: #"{"body": "{{parseDate '01/02/2003' format='dd/MM/yyyy'}}"}"#,
            expected: .body("2003-02-01T00:00:00Z")),
        Case(
            source: "PDHT.parsesLocalDateTimeWithSuppliedFormat",
            response: #"{"body": "{{parseDate '01/02/2003 05:06:07' format='dd/MM/yyyy HH:mm:ss'}}"}"#,
            expected: .body("2003-02-01T05:06:07Z")),
        Case(
            source: "PDHT.parsesDateTimeWithEpochFormat",
            response: #"{"body": "{{parseDate '1577964091000' format='epoch'}}"}"#,
            expected: .body("2020-01-02T11:21:31Z")),
        // HandlebarsCurrentDateHelperTest (HCDH)
        Case(
            source: "HCDH.rendersNowDateTime", response: #"{"body": "{{now}}"}"#,
            expected: .pattern("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]+Z")),
        Case(
            source: "HCDH.rendersNowDateTimeWithCustomFormat", response: #"{"body": "{{now format='yyyy/mm/dd'}}"}"#,
            expected: .pattern("[0-9]{4}/[0-9]{2}/[0-9]{2}")),
        Case(
            source: "HCDH.rendersPassedDateTimeWithDayOffset",
            response:
                #"{"body": "{{date (parseDate '2018-04-16' format='yyyy-MM-dd') offset='5 days' format='yyyy-MM-dd'}}"}"#,
            expected: .body("2018-04-21")),
        Case(
            source: "HCDH.rendersNowAsUnixEpochInMilliseconds", response: #"{"body": "{{now format='epoch'}}"}"#,
            expected: .pattern("[0-9]{13}")),
        Case(
            source: "HCDH.rendersNowAsUnixEpochInSeconds", response: #"{"body": "{{now format='unix'}}"}"#,
            expected: .pattern("[0-9]{10}")),
        Case(
            source: "HCDH.adjustsISO8601ToSpecfiedTimezone",
            response:
                #"{"body": "{{date (parseDate '2014-10-09T06:06:01Z') offset='3 days' timezone='Australia/Sydney'}}"}"#,
            expected: .body("2014-10-12T17:06:01+11:00")),
        Case(
            source: "HCDH.adjustsCustomFormatToSpecfiedTimezone",
            response:
                #"{"body": "{{date (parseDate '2014-10-09T06:06:01Z') offset='3 days' timezone='Australia/Sydney' format='yyyy-MM-dd HH:mm:ssZ'}}"}"#,
            expected: .body("2014-10-12 17:06:01+1100")),
        Case(
            source: "HCDH.helperIsIncludedInTemplateTransformerWithNowTagName",
            response: #"{"body": "{{now offset='6 days'}}"}"#, expected: .pattern("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]+Z")
        ),
        Case(
            source: "HCDH.helperIsIncludedInTemplateTransformerWithDateTagName",
            response: #"{"body": "{{date offset='6 days'}}"}"#,
            expected: .pattern("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]+Z")),
        Case(
            source: "HCDH.acceptsDateParameterwithDateTagName",
            response: #"{"body": "{{date (parseDate '2018-05-05T10:11:12Z') offset='-1 days'}}"}"#,
            expected: .body("2018-05-04T10:11:12Z")),
        // ResponseTemplatingAcceptanceTest
        Case(
            source: "RTA.Local.appliesResponseTemplateWhenAddedToStubMapping",
            response: #"{"body": "{{request.path.[0]}}"}"#, target: "/templated", expected: .body("templated")),
        Case(
            source: "RTA.Local.doesNotIncludeQueryParametersInPathVariableValue",
            request: #"{"urlPathTemplate": "/{template_param}"}"#,
            response: #"{"body": "{ \"key\": \"{{{ request.path.template_param }}}\" }"}"#, target: "/foo?bar=1",
            expected: .body(#"{ "key": "foo" }"#)),
        Case(
            source: "RTA.Global.appliesResponseTemplate", response: #"{"body": "{{request.path.[0]}}"}"#,
            target: "/templated", global: true, expected: .body("templated")),
        Case(
            source: "RTA.Global.appliesToResponseBodyFromFile",
            response: #"{"bodyFileName": "templated-example-1.txt"}"#,
            target: "/templated", global: true, files: [("templated-example-1.txt", "{{request.path.[0]}}")],
            expected: .body("templated")),
        Case(
            source: "RTA.Global.copesWithBase64BodiesWithoutTemplateElements",
            response: #"{"base64Body": "JVBERi0xLjEK"}"#, target: "/documents/document/123", global: true,
            expected: .body("%PDF-1.1\n")),
        Case(
            source: "RTA.Global.supportsSelectionResponseBodyTemplateViaTemplate",
            response: #"{"bodyFileName": "templated-example-{{request.path.1}}.txt"}"#, target: "/templated/3",
            global: true, files: [("templated-example-3.txt", "{{request.path.1}}")], expected: .body("3")),
        Case(
            source: "RTA.Global.supportsDisablingTemplatingOfBodyFilesPerStub",
            response:
                #"{"bodyFileName": "templated-example-1.txt", "transformerParameters": {"disableBodyFileTemplating": true}}"#,
            target: "/templated", global: true, files: [("templated-example-1.txt", "{{request.path.[0]}}")],
            expected: .body("{{request.path.[0]}}")),
        Case(
            source: "RTA.Global.supportsJsonBodiesWithTemplating",
            response: #"{"jsonBody": {"modified": "{{jsonPath request.body '$.arrayprop.length()'}}"}}"#,
            method: "POST",
            body: #"{ "arrayprop": [1,2,3] }"#, global: true, expected: .body(#"{"modified":"3"}"#)),
        Case(
            source: "RTA.Global.jsonBodyTemplatesCanSpecifyRequestAttributes",
            response: #"{"jsonBody": {"Key": "Hello world {{request.query.qp}}!"}}"#, target: "/jsonBody/template?qp=2",
            expected: .body(#"{"Key":"Hello world 2!"}"#)),
        Case(
            source: "RTA.Global.canLookupSquareBracketedQueryParameters",
            response: #"{"body": "ID: {{lookup request.query 'filter[id]'}}"}"#, target: "/squares?filter%5Bid%5D=321",
            global: true, expected: .body("ID: 321")),
        Case(
            source: "RTA.Global.canReadPathParametersFromModelWhenStubUsesPathTemplate",
            request: #"{"urlPathTemplate": "/v1/contacts/{contactId}/addresses/{addressId}"}"#,
            response: #"{"body": "contactId: {{request.path.contactId}}, addressId: {{request.path.addressId}}"}"#,
            target: "/v1/contacts/12345/addresses/67890", global: true,
            expected: .body("contactId: 12345, addressId: 67890")),
        Case(
            source: "RTA.Global.canReadPathSegmentsByIndexWhenStubUsesPathTemplate",
            request: #"{"urlPathTemplate": "/v1/contacts/{contactId}/addresses/{addressId}"}"#,
            response: #"{"body": "1: {{request.path.1}}, 2: {{request.path.2}}"}"#,
            target: "/v1/contacts/12345/addresses/67890", global: true, expected: .body("1: contacts, 2: 12345")),
        Case(
            source: "RTA.Global.canReadNumericPathVariableValuesWhenUsingPathTemplate",
            request: #"{"urlPathTemplate": "/v1/first/{0}/second/{1}"}"#,
            response: #"{"body": "1: {{request.path.0}}, 2: {{request.path.1}}"}"#,
            target: "/v1/first/first1/second/second2", global: true, expected: .body("1: first1, 2: second2")),
        Case(
            source: "RTA.Global.canLoopOverPathSegmentsWhenUsingPathTemplate",
            request: #"{"urlPathTemplate": "/v1/first/{0}/second/{1}"}"#,
            response: #"{"body": "{{#each request.path as |segment|}}{{segment}} {{/each}}"}"#,
            target: "/v1/first/first1/second/second2", global: true, expected: .body(" v1 first first1 second second2 ")
        ),
        Case(
            source: "RTA.Global.bodyAsBase64IsAvailableOnTheRequestModel",
            response: #"{"body": "{{{request.bodyAsBase64}}}"}"#, method: "POST", body: #"{"foo":"bar"}"#, global: true,
            expected: .body("eyJmb28iOiJiYXIifQ==")),
        Case(
            source: "RTA.Global.exceptionThrownWhileRenderingIsReportedViaSubEvent",
            response: #"{"body": "{{math '1' '/' 0}}"}"#, target: "/bad", global: true,
            expected: .status(500, bodyContaining: "divides by zero")),
    ]

    /// Cases petmock does not pass yet, with why: each still runs, and must fail (a fixed one
    /// is then moved out of this list).
    static let knownGaps: [String: String] = [:]

    /// Serves one case: its mapping in a fresh stub folder, its request over a socket.
    static func run(_ testCase: Case) throws -> (passed: Bool, got: String) {
        let folder = try TemporaryStubs()
        for (name, content) in testCase.files { folder.write("__files/" + name, content) }
        var response = try JSONValue(parsing: testCase.response)
        if !testCase.global, case .object(var object) = response {
            object["transformers"] = ["response-template"]
            response = .object(object)
        }
        let mapping: JSONValue = ["request": try JSONValue(parsing: testCase.request), "response": response]
        folder.write("mappings/case.json", mapping.serialized())
        let server = try startServer(stubs: folder.root) { $0.globalResponseTemplating = testCase.global }
        defer { server.stop() }
        guard server.loadProblems.isEmpty else { return (false, "load problems: \(server.loadProblems)") }
        let answer = try fetch(
            server.port, testCase.method, testCase.target, headers: testCase.headers, body: testCase.body)
        let body = String(decoding: answer.body, as: UTF8.self)
        switch testCase.expected {
        case .body(let expected): return (answer.status == 200 && body == expected, "\(answer.status) '\(body)'")
        case .pattern(let pattern):
            let regex = try LinearTimeRegex(pattern)
            return (answer.status == 200 && regex.wholeMatches(body), "\(answer.status) '\(body)'")
        case .header(let name, let value):
            let got = answer.headers.values(name: name).joined(separator: ", ")
            return (answer.status == 200 && got == value, "\(answer.status) \(name): '\(got)'")
        case .status(let status, let fragment):
            return (answer.status == status && body.contains(fragment), "\(answer.status) '\(body)'")
        }
    }

    @Test func wireMockCasesPassExceptTheKnownGaps() throws {
        var passed = 0
        for testCase in Self.cases {
            let (ok, got) = try Self.run(testCase)
            if ok { passed += 1 }
            if let gap = Self.knownGaps[testCase.source] {
                #expect(!ok, "\(testCase.source) now passes (\(gap)): take it out of knownGaps")
            } else {
                #expect(ok, "\(testCase.source): got \(got)")
            }
        }
        print("Templating parity: \(passed) of \(Self.cases.count) WireMock cases pass")
        #expect(passed == Self.cases.count - Self.knownGaps.count)
    }
}
