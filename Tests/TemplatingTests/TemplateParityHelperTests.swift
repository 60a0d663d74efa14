import Foundation
import HTTPCore
import JSONKit
import LinearRegex
import Templating
import Testing

/// The helpers of WireMock 3 templating, as data: each case cites the WireMock
/// test it came from (`src/test/java/com/github/tomakehurst/wiremock/`, Apache-2.0) or says
/// what it checks beyond them.
@Suite struct TemplateParityHelperTests {
    static let renders: [(source: String, template: String, expected: String)] = [
        // regexExtract: RegexExtractHelperTest, ResponseTemplateTransformerTest (RTT).
        ("RTT.extractSingleRegexValue", "{{regexExtract 'abc-DEF-123' '[A-Z]+'}}", "DEF"),
        (
            "RTT.extractMultipleRegexValues",
            "{{regexExtract 'abc-DEF-123' '([a-z]+)-([A-Z]+)-([0-9]+)' 'parts'}}{{parts.0}},{{parts.1}},{{parts.2}}",
            "abc,DEF,123"
        ),
        (
            "RegexExtractHelperTest.canExtractMultipleRegexMatches",
            "{{regexExtract 'abc,def,ghi' '([A-Za-z]+)' 'parts'}}{{#each parts}}{{this}} {{/each}}", "abc def ghi "
        ),
        ("the list renders as its first group (ListOrSingle)", "{{regexExtract 'k=v' '(\\w)=(\\w)' 'kv'}}{{kv}}", "k"),
        ("an unset group is empty", "{{regexExtract 'b' '(a)?(b)' 'g'}}[{{g.0}}|{{g.1}}]", "[|b]"),
        ("leftmost-first, as Java", "{{regexExtract 'ab' 'a|ab'}}", "a"),
        (
            "RegexExtractHelperTest.invalidRegExErrorWhenRegexStringIsInvalid (a computed pattern)",
            "{{{regexExtract 'abc' (upper '(a')}}}", "[ERROR: Invalid regex string (A: unclosed group at offset 2]"
        ),
        ("a reluctant group", "{{regexExtract '<x><y>' '<(.+?)>' 'tag'}}{{tag}}", "x"),
        ("RTT.returnsReasonableDefault", "{{{regexExtract 'abc' '[0-9]+'}}}", "[ERROR: Nothing matched [0-9]+]"),
        ("RTT.regexExtractSupportsDefault", "{{regexExtract 'abc' '[0-9]+' 'v' default='none'}}", "none"),
        (
            "WireMock: a variable and no groups is no match", "{{{regexExtract 'abc' '[a-z]+' 'v'}}}",
            "[ERROR: Nothing matched [a-z]+]"
        ),
        // truncateDate: DateTimeTruncationTest, TruncateDateTimeHelperTest, RTT.dateTruncation.
        (
            "RTT.dateTruncation", "{{date (truncateDate (parseDate '2021-06-29T11:22:33Z') 'first hour of day')}}",
            "2021-06-29T00:00:00Z"
        ),
        (
            "DTTT.firstSecondOfMinute", "{{truncateDate (parseDate '2021-06-18T10:11:12Z') 'first second of minute'}}",
            "2021-06-18T10:11:00Z"
        ),
        (
            "DTTT.firstMinuteOfHour", "{{truncateDate (parseDate '2021-06-18T10:11:12Z') 'first minute of hour'}}",
            "2021-06-18T10:00:00Z"
        ),
        (
            "DTTT.firstDayOfMonth", "{{truncateDate (parseDate '2021-06-18T10:11:12Z') 'first day of month'}}",
            "2021-06-01T00:00:00Z"
        ),
        (
            "DTTT.firstDayOfNextMonth", "{{truncateDate (parseDate '2021-06-18T10:11:12Z') 'first day of next month'}}",
            "2021-07-01T00:00:00Z"
        ),
        (
            "DTTT.lastDayOfMonth", "{{truncateDate (parseDate '2021-06-18T10:11:12Z') 'last day of month'}}",
            "2021-06-30T00:00:00Z"
        ),
        (
            "DTTT.firstDayOfYear", "{{truncateDate (parseDate '2021-06-18T10:11:12Z') 'first day of year'}}",
            "2021-01-01T00:00:00Z"
        ),
        (
            "DTTT.firstDayOfNextYear", "{{truncateDate (parseDate '2021-06-18T10:11:12Z') 'first day of next year'}}",
            "2022-01-01T00:00:00Z"
        ),
        (
            "DTTT.lastDayOfYear", "{{truncateDate (parseDate '2021-06-18T10:11:12Z') 'last day of year'}}",
            "2021-12-31T00:00:00Z"
        ),
        (
            "TruncateDateTimeHelperTest.truncatesDateObject",
            "{{truncateDate (parseDate '2020-03-27T11:22:33Z') 'last day of month'}}", "2020-03-31T00:00:00Z"
        ),
        (
            "DTTT.parsesFromFriendlyString (any case, underscores)",
            "{{truncateDate (parseDate '2021-12-18T10:11:12Z') 'FIRST_DAY_OF_NEXT_MONTH'}}", "2022-01-01T00:00:00Z"
        ),
        (
            "a leap February", "{{truncateDate (parseDate '2024-02-10T00:00:00Z') 'last day of month'}}",
            "2024-02-29T00:00:00Z"
        ),
        (
            "in the date's own zone",
            "{{truncateDate (date (parseDate '2021-06-18T23:30:00Z') timezone='Europe/Paris') 'first hour of day'}}",
            "2021-06-19T00:00:00+02:00"
        ),
        (
            "then formatted",
            "{{date (truncateDate (parseDate '2021-06-18T10:11:12Z') 'first day of month') format='yyyy-MM-dd'}}",
            "2021-06-01"
        ),
        (
            "TruncateDateTimeHelper: not a date", "{{{truncateDate 'x' 'first day of month'}}}",
            "[ERROR: A date object must be passed to the truncateDate helper]"
        ),
        (
            "a computed truncation, checked at render", "{{{truncateDate (now) request.method}}}",
            "[ERROR: 'truncateDate' expects a truncation, one of 'first second of minute', 'first minute of hour', 'first hour of day', 'first day of month', 'first day of next month', 'last day of month', 'first day of year', 'first day of next year', 'last day of year'; found 'GET']"
        ),
    ]

    @Test func jsonPathFunctionsAndTemplatedPaths() throws {
        // RTA.supportsJsonBodiesWithTemplating: a JSONPath ending in a function.
        #expect(try render(#"{{jsonPath '{"a": [1, 2, 3]}' '$.a.length()'}}"#) == "3")
        #expect(try render(#"{{jsonPath '{"a": [1, 2, 3]}' '$.a.sum()'}}"#) == "6")
        #expect(try render(#"{{jsonPath '{"a": 1}' '$.b.length()' default='none'}}"#) == "none")
        #expect(
            try render(#"{{{jsonPath '{"a": "x"}' '$.a.sum()'}}}"#)
                == "[ERROR: 'jsonPath' cannot apply sum() to what '$.a.sum()' selects]")
        // RTA.canLoopOverPathSegmentsWhenUsingPathTemplate: WireMock's TemplatedUrlPath
        // iterates the segments from the empty one before the first '/'.
        func path(_ url: String, templated: Bool) -> TemplateValue {
            let request = TemplateRequest(
                method: "GET", url: url, headers: [:], body: [], baseURL: "http://localhost",
                pathParameters: templated ? ["id": "7"] : [:], pathTemplated: templated)
            return .object([("request", .node(request))])
        }
        let each = "{{#each request.path as |segment|}}[{{segment}}]{{/each}}"
        #expect(try render(each, path("/v1/first/7?q=1", templated: true)) == "[][v1][first][7]")
        #expect(try render(each, path("/v1/first/7/", templated: true)) == "[][v1][first][7][]")
        #expect(try render(each, path("/v1/first/7", templated: false)) == "[v1][first][7]")
        #expect(try render("{{request.path.0}} {{request.path.id}}", path("/v1/7", templated: true)) == "v1 7")
    }

    /// SystemValueHelperTest's cases under petmock's default policy (`wiremock.*`; the
    /// WireMock tests permit `.*` or `test.*` to read real variables), and HostnameHelperTest.
    @Test func systemValueReadsOnlyPermittedKeys() throws {
        try #require(ProcessInfo.processInfo.environment[SystemKeyPolicy.environmentVariable] == nil)
        #expect(try render("{{systemValue key='wiremock.petkit.unset' default='DEFAULT'}}") == "DEFAULT")
        #expect(try render("[{{systemValue key='wiremock.petkit.unset'}}]") == "[]")
        #expect(try render("{{systemValue key='wiremock.unset' type='PROPERTY' default='D'}}") == "D")
        // A key computed at render is checked then: never an arbitrary variable's value.
        let denied = try render("{{{systemValue key=request.method}}}")
        #expect(denied.hasPrefix("[ERROR: Access to GET is denied (permitted keys: wiremock.*;"), "\(denied)")
        let hostname = try render("{{hostname}}")
        var buffer = [CChar](repeating: 0, count: 256)
        if gethostname(&buffer, 255) == 0 {
            #expect(
                hostname == String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        #expect(!hostname.isEmpty)
    }

    @Test func systemKeyPolicyIsWireMocksAuthoriser() throws {
        // SystemValueHelperTest: `JAVA*` denies TEST_VAR; `test.*` permits test.key.
        #expect(try !SystemKeyPolicy(patterns: ["JAVA*"]).isPermitted("TEST_VAR"))
        #expect(try SystemKeyPolicy(patterns: ["test.*"]).isPermitted("test.key"))
        #expect(try SystemKeyPolicy(patterns: ["test.*"]).isPermitted("TEST.KEY"), "case is ignored")
        #expect(try !SystemKeyPolicy(patterns: ["JAVA.*"]).isPermitted("test.key"))
        #expect(try SystemKeyPolicy(patterns: [".*"]).isPermitted("PATH"))
        #expect(try SystemKeyPolicy(patterns: []).patterns == ["wiremock.*"])
        #expect(try !SystemKeyPolicy(patterns: []).isPermitted("PATH"))
        #expect(try SystemKeyPolicy(patterns: []).isPermitted("wiremock.port"))
        #expect(throws: RegexError.self) { try SystemKeyPolicy(patterns: ["(a"]) }
    }

    /// numberFormat: RTT.formatDecimalAsCurrencyWithLocale, the examples of WireMock's
    /// number-helpers page (NHD), and Java's `DecimalFormat` rules.
    static let numberFormats: [(source: String, template: String, expected: String)] = [
        ("RTT.formatDecimalAsCurrencyWithLocale", "{{{numberFormat 123.456 'currency' 'en_GB'}}}", "£123.46"),
        ("NHD currency", "{{{numberFormat 123.4567 'currency' 'en_GB'}}}", "£123.46"),
        ("NHD percent", "{{{numberFormat 123.4567 'percent' 'en_GB'}}}", "12,346%"),
        ("NHD pattern", "{{{numberFormat 123.4567 '###.000000' 'en_GB'}}}", "123.456700"),
        ("NHD digits", "{{{numberFormat 1234.567 maximumIntegerDigits=3 minimumFractionDigits=6}}}", "234.567000"),
        ("NHD grouping", "{{{numberFormat 12345.678 groupingUsed=false}}}", "12345.678"),
        ("NHD rounding", "{{{numberFormat 1.239 roundingMode='down' maximumFractionDigits=2}}}", "1.23"),
        ("the default style", "{{numberFormat 1234567.8915}}", "1,234,567.892"),
        ("integer, half-even", "{{numberFormat 2.5 'integer'}} {{numberFormat 3.5 'integer'}}", "2 4"),
        ("negative currency", "{{numberFormat -1234.5 'currency' 'en_US'}}", "-$1,234.50"),
        ("a locale with the symbol after", "{{{numberFormat 1234.5 'currency' 'de-DE'}}}", "1.234,50\u{00A0}€"),
        ("percent rounds half-even", "{{numberFormat 0.125 'percent'}}", "12%"),
        ("no integer digit", "{{numberFormat 0.5 '#.##'}}|{{numberFormat 0 '#.##'}}", ".5|0"),
        ("a carry", "{{numberFormat 9.999 '0.00'}}", "10.00"),
        ("minimum integer digits", "{{numberFormat 7 '000'}}", "007"),
        ("modes", "{{numberFormat 1.25 '0.0'}} {{numberFormat 1.25 '0.0' roundingMode='HALF_UP'}}", "1.2 1.3"),
        (
            "ceiling and floor",
            "{{numberFormat -1.21 '0.0' roundingMode='ceiling'}} {{numberFormat -1.21 '0.0' roundingMode='floor'}}",
            "-1.2 -1.3"
        ),
        ("numeric text", "{{numberFormat '42.5' 'integer'}}", "42"),
        (
            "quoted and currency affixes",
            "{{{numberFormat 5 \"'#'0\"}}} {{{numberFormat 1234.5 '¤#,##0.00' 'en_GB'}}}", "#5 £1,234.50"
        ),
        (
            "a computed value", "{{{numberFormat request.method}}}",
            "[ERROR: 'numberFormat' expects a number (of at most 38 digits, below 1e165), found 'GET']"
        ),
        (
            "text that only starts as a number", "{{{numberFormat '12abc'}}}|{{{numberFormat '1.2.3'}}}",
            "[ERROR: 'numberFormat' expects a number (of at most 38 digits, below 1e165), found '12abc']|"
                + "[ERROR: 'numberFormat' expects a number (of at most 38 digits, below 1e165), found '1.2.3']"
        ),
        (
            "exponents and signs",
            "{{numberFormat '2e-7' '0.0000000'}} {{numberFormat '+3' '0.0'}} {{numberFormat '1E+20'}}",
            "0.0000002 3.0 100,000,000,000,000,000,000"
        ),
    ]

    @Test(arguments: numberFormats.indices)
    func formatsNumbersAsJava(_ index: Int) throws {
        let (source, template, expected) = Self.numberFormats[index]
        #expect(try render(template) == expected, "\(source)")
    }

    @Test(arguments: renders.indices)
    func rendersAsWireMock(_ index: Int) throws {
        let (source, template, expected) = Self.renders[index]
        #expect(try render(template) == expected, "\(source)")
    }

    /// Literal arguments are checked when the template is compiled: the error names the place.
    static let loadErrors: [(template: String, line: Int, column: Int, fragment: String)] = [
        ("x\n  {{regexExtract request.body '(a'}}", 2, 5, "'regexExtract' cannot use the pattern '(a': unclosed group"),
        ("{{regexExtract request.body '(a)\\1' 'v'}}", 1, 3, "backreference"),
        ("{{regexExtract request.body '(a)++'}}", 1, 3, "possessive quantifier on a capturing group"),
        ("{{date (truncateDate (now) 'first week')}}", 1, 9, "expects a truncation, one of 'first second of minute'"),
        ("{{#with (truncateDate (now) 'x')}}{{/with}}", 1, 10, "found 'x'"),
        ("{{jsonPath request.body '$.a.count()'}}", 1, 3, "expected a function: size(), length()"),
        ("{{jsonPath request.body '$.a.length().b'}}", 1, 3, "the end of the path after a function"),
        ("{{systemValue key=''}}", 1, 3, "The key cannot be empty"),
        ("{{systemValue key='wiremock.a' type='OTHER'}}", 1, 3, "expects type='ENVIRONMENT' or type='PROPERTY'"),
        ("ab {{systemValue key='PATH'}}", 1, 6, "Access to PATH is denied (permitted keys: wiremock.*"),
        ("{{numberFormat 1 'currency' 'xx_YY'}}", 1, 3, "does not know the locale 'xx_YY': petmock knows de_DE, en_GB"),
        ("{{numberFormat 1 '0.0E0'}}", 1, 3, "exponent"),
        ("{{numberFormat 1 '0;(0)'}}", 1, 3, "negative subpattern"),
        ("{{numberFormat 1 roundingMode='sideways'}}", 1, 3, "expects roundingMode to be one of 'up'"),
        ("{{numberFormat 1 maximumFractionDigits=1000}}", 1, 3, "from 0 to 100"),
        ("{{numberFormat 1 precision=2}}", 1, 3, "does not know the argument 'precision'"),
    ]

    @Test func literalArgumentsAreCheckedAtLoad() {
        expectCompileErrors(Self.loadErrors)
    }

    @Test func regexExtractStaysBounded() throws {
        // Every match's groups count against the render's iteration limit.
        let limits = TemplateLimits(maximumIterations: 10)
        #expect(throws: TemplateError.self) {
            try Template("{{regexExtract request.body '(a)' 'v'}}", limits: limits).render(
                context(body: String(repeating: "a", count: 20)))
        }
        // A find loop that would scan the text over and over stops the render.
        let body = String(repeating: "a", count: 5_000)
        #expect(throws: TemplateError.self) {
            try render("{{regexExtract request.body 'a(?:.*c)?' 'v'}}", context(body: body))
        }
        #expect(try render("{{regexExtract request.body 'a(?:.*c)?'}}", context(body: body)) == "a")
    }
}
