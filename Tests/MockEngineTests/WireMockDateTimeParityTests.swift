import HTTPCore
import JSONKit
import Platform
import Testing

@testable import MockEngine
@testable import StubFormat
@testable import StubServerKit

/// The date-time matchers `before`, `after` and `equalToDateTime`. Cases carried over as data
/// from WireMock's tests (Apache-2.0), `src/test/java/com/github/tomakehurst/wiremock/matching/`
/// `BeforeDateTimePatternTest`, `AfterDateTimePatternTest` and `EqualToDateTimePatternTest`;
/// where WireMock reads `ZonedDateTime.now()`, the values here are worked out from the fixed
/// clock below (2024-05-15T10:30:00Z), so no test reads the wall clock.
@Suite struct WireMockDateTimeParityTests {
    /// 2024-05-15T10:30:00Z.
    static let now = TimeSource.fixed(wallNanoseconds: 1_715_769_000 * 1_000_000_000)

    struct Case: Sendable, CustomStringConvertible {
        let source: String
        let matcher: String
        let value: String?
        let matches: Bool
        var clock = WireMockDateTimeParityTests.now

        var description: String { "\(source): \(value ?? "nil")" }
    }

    static let beforeZoned = #"{"before": "2021-06-14T15:15:15Z"}"#
    static let beforeLocal = #"{"before": "2021-06-14T15:15:15"}"#
    static let fifteenDays = #"{"before": "15 days", "truncateExpected": "first day of month"}"#
    static let fifteenDaysBoth =
        #"{"before": "15 days", "truncateExpected": "first day of month", "truncateActual": "last day of month"}"#
    static let nowMonthPlusOne =
        #"{"equalToDateTime": "now", "expectedOffset": 1, "expectedOffsetUnit": "months", "truncateExpected": "last day of month", "applyTruncationLast": true}"#
    static let nowMonthPlusOneFirst =
        #"{"equalToDateTime": "now", "expectedOffset": 1, "expectedOffsetUnit": "months", "truncateExpected": "last day of month"}"#

    static let cases: [Case] = [
        // BeforeDateTimePatternTest
        Case(
            source: "matchesZonedISO8601BeforeZonedLiteralDateTime", matcher: beforeZoned,
            value: "2021-06-01T15:15:15Z", matches: true),
        Case(
            source: "matchesZonedISO8601BeforeZonedLiteralDateTime", matcher: beforeZoned,
            value: "2021-07-01T23:59:59Z", matches: false),
        Case(
            source: "matchesZonedExpectedWithLocalActual", matcher: beforeZoned, value: "2021-06-01T15:15:15",
            matches: true),
        Case(
            source: "matchesZonedExpectedWithLocalActual", matcher: beforeZoned, value: "2021-07-01T23:59:59",
            matches: false),
        Case(
            source: "matchesLocalISO8601BeforeLocalLiteralDateTime", matcher: beforeLocal, value: "2021-06-01T15:15:15",
            matches: true),
        Case(
            source: "matchesLocalISO8601BeforeLocalLiteralDateTime", matcher: beforeLocal, value: "2021-07-01T23:59:59",
            matches: false),
        Case(
            source: "matchesZonedISO8601BeforeLocalLiteralDateTime", matcher: beforeLocal,
            value: "2021-06-01T15:15:15Z", matches: true),
        Case(
            source: "matchesZonedISO8601BeforeLocalLiteralDateTime", matcher: beforeLocal,
            value: "2021-07-01T23:59:59Z", matches: false),
        Case(
            source: "doesNotMatchWhenActualValueUnparseable", matcher: beforeLocal,
            value: "2021-06-01T15:15:blahsdfj123", matches: false),
        Case(source: "doesNotMatchWhenActualValueIsNull", matcher: beforeLocal, value: nil, matches: false),
        Case(
            source: "matchesZonedRFC1123ActualDate", matcher: beforeZoned, value: "Tue, 01 Jun 2021 15:16:17 GMT",
            matches: true),
        Case(
            source: "matchesZonedRFC1123ActualDate", matcher: beforeZoned, value: "Thu, 01 Jul 2021 15:16:17 GMT",
            matches: false),
        Case(
            source: "matchesZonedRFC1036ActualDate", matcher: beforeZoned, value: "Tuesday, 01-Jun-21 14:14:14 GMT",
            matches: true),
        Case(
            source: "matchesZonedRFC1036ActualDate", matcher: beforeZoned, value: "Thursday, 01-Jul-21 15:16:17 GMT",
            matches: false),
        Case(
            source: "matchesZonedSingleDigitDayAsctimeActualDate", matcher: #"{"before": "2021-06-14T01:01:01Z"}"#,
            value: "Tue Jun  1 01:01:01 2021", matches: true),
        Case(
            source: "matchesZonedSingleDigitDayAsctimeActualDate", matcher: #"{"before": "2021-06-14T01:01:01Z"}"#,
            value: "Thu Jul  1 01:01:01 2021", matches: false),
        Case(
            source: "matchesZonedDoubleDigitDayAsctimeActualDate", matcher: #"{"before": "2021-06-14T01:01:01Z"}"#,
            value: "Thu Jun 10 01:01:01 2021", matches: true),
        Case(
            source: "matchesZonedDoubleDigitDayAsctimeActualDate", matcher: #"{"before": "2021-06-14T01:01:01Z"}"#,
            value: "Sat Jul 10 01:01:01 2021", matches: false),
        Case(
            source: "matchesNonUTCZonedISO8601ActualDate", matcher: beforeZoned,
            value: "2021-06-14T15:15:15+01:00[Europe/London]", matches: true),
        Case(
            source: "matchesNonUTCZonedISO8601ActualDate", matcher: beforeZoned,
            value: "2021-06-14T16:15:15+01:00[Europe/London]", matches: false),
        Case(
            source: "matchesActualDateAccordingToSpecifiedFormat",
            matcher: #"{"before": "2021-06-14", "actualFormat": "dd/MM/yyyy"}"#, value: "01/06/2021", matches: true),
        Case(
            source: "matchesActualDateAccordingToSpecifiedFormat",
            matcher: #"{"before": "2021-06-14", "actualFormat": "dd/MM/yyyy"}"#, value: "01/07/2021", matches: false),
        Case(source: "matchesAgainstNow", matcher: #"{"before": "now"}"#, value: "2024-05-13T10:30Z", matches: true),
        Case(source: "matchesAgainstNow", matcher: #"{"before": "now"}"#, value: "2024-05-15T14:30Z", matches: false),
        Case(
            source: "matchesAgainstOffsetFromNow", matcher: #"{"before": "now -5 days"}"#, value: "2024-05-08T10:30Z",
            matches: true),
        Case(
            source: "matchesAgainstOffsetFromNow", matcher: #"{"before": "now -5 days"}"#, value: "2024-05-11T10:30Z",
            matches: false),
        Case(
            source: "truncatesExpectedDateToSpecifiedUnit", matcher: fifteenDays, value: "2024-05-15T10:30Z",
            matches: true),
        Case(
            source: "truncatesExpectedDateToSpecifiedUnit", matcher: fifteenDays, value: "2024-05-17T10:30Z",
            matches: false),
        Case(
            source: "truncatesActualDateToSpecifiedUnit", matcher: fifteenDaysBoth, value: "2024-04-15T10:30Z",
            matches: true),
        Case(
            source: "truncatesActualDateToSpecifiedUnit", matcher: fifteenDaysBoth, value: "2024-05-30T10:30Z",
            matches: false),
        Case(
            source: "deserialisesNegativeOffsetFormFromJson", matcher: #"{"before": "-15 days"}"#,
            value: "2024-04-29T10:30Z", matches: true),
        Case(
            source: "deserialisesNegativeOffsetFormFromJson", matcher: #"{"before": "-15 days"}"#,
            value: "2024-05-01T10:30Z", matches: false),
        Case(
            source: "deserialisesOffsetWithSeparateAmountAndUnitAttributesFromJson",
            matcher: #"{"before": "now", "expectedOffset": -15, "expectedOffsetUnit": "days"}"#,
            value: "2024-04-29T10:30Z", matches: true),
        Case(
            source: "deserialisesOffsetWithSeparateAmountAndUnitAttributesFromJson",
            matcher: #"{"before": "now", "expectedOffset": -15, "expectedOffsetUnit": "days"}"#,
            value: "2024-05-01T10:30Z", matches: false),
        Case(
            source: "acceptsJavaZonedDateTimeAsExpected", matcher: #"{"before": "2020-08-29T00:00:00Z"}"#,
            value: "2019-01-01T00:00:00Z", matches: true),
        Case(
            source: "acceptsJavaLocalDateTimeAsExpected", matcher: #"{"before": "2020-08-29T00:00:00"}"#,
            value: "2019-01-01T00:00:00", matches: true),
        // AfterDateTimePatternTest
        Case(
            source: "after matchesZonedToZoned", matcher: #"{"after": "2021-06-14T12:13:14Z"}"#,
            value: "2022-06-14T12:13:14Z", matches: true),
        Case(
            source: "after matchesZonedToZoned", matcher: #"{"after": "2021-06-14T12:13:14Z"}"#,
            value: "2020-06-14T12:13:14Z", matches: false),
        Case(
            source: "after matchesLocalToLocal", matcher: #"{"after": "2021-06-14T12:13:14"}"#,
            value: "2022-06-14T12:13:14", matches: true),
        Case(
            source: "after matchesLocalToLocal", matcher: #"{"after": "2021-06-14T12:13:14"}"#,
            value: "2020-06-14T12:13:14", matches: false),
        Case(
            source: "after matchesLocalToZoned", matcher: #"{"after": "2021-06-14T12:13:14"}"#,
            value: "2022-06-14T12:13:14Z", matches: true),
        Case(
            source: "after matchesLocalToZoned", matcher: #"{"after": "2021-06-14T12:13:14"}"#,
            value: "2020-06-14T12:13:14Z", matches: false),
        Case(
            source: "after matchesZonedExpectedWithLocalActual", matcher: #"{"after": "2021-06-14T15:15:15Z"}"#,
            value: "2021-07-01T23:59:59", matches: true),
        Case(
            source: "after matchesZonedExpectedWithLocalActual", matcher: #"{"after": "2021-06-14T15:15:15Z"}"#,
            value: "2021-06-01T15:15:15", matches: false),
        Case(
            source: "after matchesZonedToNowOffset", matcher: #"{"after": "now +27 minutes"}"#,
            value: "2024-05-15T11:30Z", matches: true),
        Case(
            source: "after matchesZonedToNowOffset", matcher: #"{"after": "now +27 minutes"}"#,
            value: "2024-05-15T10:29Z", matches: false),
        Case(
            source: "after matchesNowWithExpectedAndActualTruncated",
            matcher:
                #"{"after": "now", "truncateExpected": "first day of month", "truncateActual": "last day of month"}"#,
            value: "2024-05-15T10:30Z", matches: true),
        Case(
            source: "after matchesNowWithExpectedAndActualTruncated",
            matcher:
                #"{"after": "now", "truncateExpected": "first day of month", "truncateActual": "last day of month"}"#,
            value: "2024-04-15T09:30Z", matches: false),
        Case(
            source: "after doesNotMatchWhenActualValueIsNull", matcher: #"{"after": "2021-06-14T15:15:15Z"}"#,
            value: nil, matches: false),
        Case(
            source: "after deserialisesOffsetWithSeparateAmountAndUnitAttributesFromJson",
            matcher: #"{"after": "now", "expectedOffset": -15, "expectedOffsetUnit": "days"}"#,
            value: "2024-05-01T10:30Z", matches: true),
        Case(
            source: "after deserialisesOffsetWithSeparateAmountAndUnitAttributesFromJson",
            matcher: #"{"after": "now", "expectedOffset": -15, "expectedOffsetUnit": "days"}"#,
            value: "2024-04-29T10:30Z", matches: false),
        // EqualToDateTimePatternTest
        Case(
            source: "matchesZonedToZoned", matcher: #"{"equalToDateTime": "2021-06-14T12:13:14Z"}"#,
            value: "2021-06-14T12:13:14Z", matches: true),
        Case(
            source: "matchesZonedToZoned", matcher: #"{"equalToDateTime": "2021-06-14T12:13:14Z"}"#,
            value: "1921-06-14T12:13:14Z", matches: false),
        Case(
            source: "matchesLiteralDateTimesWithDifferentZones",
            matcher: #"{"equalToDateTime": "2021-06-24T13:40:27+01:00"}"#, value: "2021-06-24T12:40:27Z", matches: true),
        Case(
            source: "matchesLiteralDateTimesWithDifferentZones",
            matcher: #"{"equalToDateTime": "2021-06-24T13:40:27+01:00"}"#, value: "2021-06-24T13:40:27Z", matches: false
        ),
        Case(
            source: "matchesLocalToLocal", matcher: #"{"equalToDateTime": "2021-06-14T12:13:14"}"#,
            value: "2021-06-14T12:13:14", matches: true),
        Case(
            source: "matchesLocalToLocal", matcher: #"{"equalToDateTime": "2021-06-14T12:13:14"}"#,
            value: "1921-06-14T12:13:14", matches: false),
        Case(
            source: "matchesLocalToZoned", matcher: #"{"equalToDateTime": "2021-06-14T12:13:14"}"#,
            value: "2021-06-14T12:13:14Z", matches: true),
        Case(
            source: "matchesLocalToZoned", matcher: #"{"equalToDateTime": "2021-06-14T12:13:14"}"#,
            value: "1921-06-14T12:13:14Z", matches: false),
        Case(
            source: "matchesZonedToLocal (system zone UTC)", matcher: #"{"equalToDateTime": "2021-06-14T12:13:14Z"}"#,
            value: "2021-06-14T12:13:14", matches: true),
        Case(
            source: "matchesZonedToLocal (system zone UTC)", matcher: #"{"equalToDateTime": "2021-06-14T12:13:14Z"}"#,
            value: "2021-06-14T12:13:13", matches: false),
        Case(
            source: "matchesNowToYearMonth",
            matcher: #"{"equalToDateTime": "now", "truncateExpected": "first day of month"}"#, value: "2024-05",
            matches: true),
        Case(
            source: "matchesNowToYearMonth",
            matcher: #"{"equalToDateTime": "now", "truncateExpected": "first day of month"}"#, value: "2024-04",
            matches: false),
        Case(
            source: "matchesNowToYearMonthInCustomFormat",
            matcher:
                #"{"equalToDateTime": "now", "truncateExpected": "first day of month", "actualFormat": "MM/yyyy"}"#,
            value: "05/2024", matches: true),
        Case(
            source: "matchesNowToYearMonthInCustomFormat",
            matcher:
                #"{"equalToDateTime": "now", "truncateExpected": "first day of month", "actualFormat": "MM/yyyy"}"#,
            value: "2024-05", matches: false),
        Case(
            source: "matchesNowToYear",
            matcher: #"{"equalToDateTime": "now", "truncateExpected": "first day of year"}"#, value: "2024",
            matches: true),
        Case(
            source: "matchesNowToYear",
            matcher: #"{"equalToDateTime": "now", "truncateExpected": "first day of year"}"#, value: "2023",
            matches: false),
        Case(
            source: "matchesNowToYearInCustomFormat",
            matcher: #"{"equalToDateTime": "now", "truncateExpected": "first day of year", "actualFormat": "yy"}"#,
            value: "24", matches: true),
        Case(
            source: "matchesNowToYearInCustomFormat",
            matcher: #"{"equalToDateTime": "now", "truncateExpected": "first day of year", "actualFormat": "yy"}"#,
            value: "2024", matches: false),
        Case(
            source: "matchesActualInUnixTimeFormat",
            matcher: #"{"equalToDateTime": "2021-06-14T12:13:14Z", "actualFormat": "unix"}"#, value: "1623672794",
            matches: true),
        Case(
            source: "matchesActualInUnixTimeFormat",
            matcher: #"{"equalToDateTime": "2021-06-14T12:13:14Z", "actualFormat": "unix"}"#, value: "1623672793",
            matches: false),
        Case(
            source: "matchesActualInEpochTimeFormat",
            matcher: #"{"equalToDateTime": "2021-06-14T12:13:14Z", "actualFormat": "epoch"}"#, value: "1623672794000",
            matches: true),
        Case(
            source: "matchesActualInEpochTimeFormat",
            matcher: #"{"equalToDateTime": "2021-06-14T12:13:14Z", "actualFormat": "epoch"}"#, value: "1623672793990",
            matches: false),
        Case(
            source: "equalTo doesNotMatchWhenActualValueIsNull",
            matcher: #"{"equalToDateTime": "2021-06-14T12:13:14Z"}"#, value: nil, matches: false),
        Case(
            source: "deserialisesFromJson",
            matcher:
                #"{"equalToDateTime": "now", "truncateExpected": "first hour of day", "truncateActual": "first hour of day"}"#,
            value: "2024-05-15T00:00Z", matches: true),
        Case(
            source: "deserialisesFromJson",
            matcher:
                #"{"equalToDateTime": "now", "truncateExpected": "first hour of day", "truncateActual": "first hour of day"}"#,
            value: "2024-05-14T19:00Z", matches: false),
        Case(
            source: "deserialisesFromJsonWithApplyTruncationLast", matcher: nowMonthPlusOne, value: "2024-03-31T00:00Z",
            matches: true, clock: .fixed(wallNanoseconds: 1_706_745_600 * 1_000_000_000)),
        Case(
            source: "deserialisesFromJsonWithApplyTruncationLast (truncation first)", matcher: nowMonthPlusOneFirst,
            value: "2024-03-29T00:00Z", matches: true, clock: .fixed(wallNanoseconds: 1_706_745_600 * 1_000_000_000)),
        Case(
            source: "acceptsJavaZonedDateTimeAsExpected", matcher: #"{"equalToDateTime": "2020-08-29T00:00:00Z"}"#,
            value: "2020-08-29T00:00:00Z", matches: true),
        Case(
            source: "acceptsJavaLocalDateTimeAsExpected", matcher: #"{"equalToDateTime": "2020-08-29T00:00:00"}"#,
            value: "2020-08-29T00:00:00", matches: true),
    ]

    static func compiled(_ json: String, clock: TimeSource) throws -> CompiledMatcher {
        var decoder = MappingDecoder(file: "m.json")
        let matcher = try #require(decoder.matcher(try JSONValue(parsing: json), at: .root), "\(decoder.problems)")
        var problems: [PatternProblem] = []
        let compiled = CompiledMatcher.compile(matcher, at: "$", problems: &problems, clock: clock)
        #expect(problems.isEmpty, "\(problems)")
        var again = MappingDecoder(file: "again.json")
        #expect(again.matcher(matcher.json, at: .root) == matcher, "round trip of \(json)")
        return try #require(compiled)
    }

    @Test(arguments: cases)
    func wireMockCase(_ example: Case) throws {
        let matcher = try Self.compiled(example.matcher, clock: example.clock)
        #expect(matcher.matches(example.value) == example.matches, "\(example)")
    }

    /// `returnsAReasonableDistanceWhenNoMatch...`: two years apart is 0.5, a century is under 1,
    /// a year is under 0.5, absent is 1.
    @Test func distancesAreOnWireMocksScale() throws {
        let matcher = try Self.compiled(#"{"before": "2021-01-01T00:00:00Z"}"#, clock: Self.now)
        #expect(matcher.mismatchDistance("2023-01-01T00:00:00Z") == 0.5)
        let century = matcher.mismatchDistance("2121-01-01T00:00:00Z")
        #expect(century > 0.5 && century < 1)
        let year = matcher.mismatchDistance("2022-01-01T00:00:00Z")
        #expect(year > 0 && year < 0.5)
        #expect(matcher.mismatchDistance(nil) == 1)
    }

    /// The near-miss report says what a header date was compared with.
    @Test func aHeaderDateExplainsItself() throws {
        var decoder = MappingDecoder(file: "m.json")
        let json = #"{"headers": {"If-Modified-Since": {"after": "2021-06-14T00:00:00Z"}}}"#
        let pattern = try #require(decoder.decodeRequest(try JSONValue(parsing: json), at: .root))
        var problems: [PatternProblem] = []
        let compiled = try #require(CompiledRequestPattern.compile(pattern, problems: &problems, clock: Self.now))
        let request = MatchableRequest(
            method: .get, target: "/", headers: HTTPHeaders([("If-Modified-Since", "Tue, 01 Jun 2021 15:16:17 GMT")]),
            body: [])
        #expect(!compiled.matches(request))
        let header = try #require(compiled.evaluate(request).last)
        #expect(header.name == "header 'If-Modified-Since'")
        #expect(header.expected == "after '2021-06-14T00:00:00Z'")
        #expect(!header.matched && header.distance > 0 && header.distance < 0.1 + 1e-9)
    }

    /// Bad date-time matchers are load errors naming the field (WireMock's would never match).
    @Test(arguments: [
        (#"{"before": "2021-06-wrongstuff:15:15"}"#, "$.before"),
        (#"{"before": "now", "expectedOffset": 3, "expectedOffsetUnit": "fortnights"}"#, "$.before"),
        (#"{"after": "now", "truncateActual": "first day of week"}"#, "$.after"),
        (#"{"after": "now", "actualFormat": "dd/MM/yyyy Q"}"#, "$.after"),
        (#"{"equalTo": "x", "actualFormat": "dd"}"#, "$.actualFormat"),
        (#"{"after": "now", "timezone": "UTC"}"#, "$"),
    ])
    func badDateTimeMatchersAreRefused(json: String, path: String) throws {
        var decoder = MappingDecoder(file: "m.json")
        var problems: [PatternProblem] = []
        if let matcher = decoder.matcher(try JSONValue(parsing: json), at: .root) {
            #expect(CompiledMatcher.compile(matcher, at: "$", problems: &problems, clock: Self.now) == nil)
        }
        let paths = decoder.problems.map(\.path) + problems.map(\.path)
        #expect(paths == [path], "\(json): \(decoder.problems) \(problems)")
    }
}
