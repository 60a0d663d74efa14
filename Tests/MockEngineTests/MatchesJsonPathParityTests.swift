import JSONKit
import Testing

@testable import MockEngine
@testable import StubFormat
@testable import StubServerKit

/// WireMock's `MatchesJsonPathPatternTest` (Apache-2.0,
/// `src/test/java/com/github/tomakehurst/wiremock/matching/`) carried over as data: a
/// `matchesJsonPath` matcher, a value, and whether WireMock calls it an exact match. Left out:
/// its notifier and message texts, and the Java serialisation cases (the JSON forms are
/// decoded here).
@Suite struct MatchesJsonPathParityTests {
    struct Case: Sendable, CustomStringConvertible {
        let source: String
        let matcher: String
        let value: String?
        let matches: Bool

        var description: String { source }

        init(_ source: String, _ matcher: String, _ value: String?, _ matches: Bool) {
            (self.source, self.matcher, self.value, self.matches) = (source, matcher, value, matches)
        }
    }

    static func path(_ expression: String) -> String { #"{"matchesJsonPath": "\#(expression)"}"# }

    static func path(_ expression: String, _ sub: String) -> String {
        #"{"matchesJsonPath": {"expression": "\#(expression)", \#(sub)}}"#
    }

    static let volume = #"{"volumeControl": {"max": 11}}"#

    static let cases: [Case] = [
        Case("matchesABasicJsonPathWhenTheExpectedElementIsAnEmptyObject", path("$.empty"), #"{ "empty": {} }"#, true),
        Case("matchesABasicJsonPathWhenTheExpectedElementIsAnEmptyArray", path("$.items"), #"{ "items": [] }"#, true),
        Case("matchesNestedEmptyObject", path("$.outer.inner.empty"), #"{"outer": {"inner": {"empty": {}}}}"#, true),
        Case(
            "matchesEmptyObjectWithEqualToJsonSubmatcher", path("$.empty", #""equalToJson": "{}""#), #"{"empty": {}}"#,
            true),
        Case(
            "matchesEmptyArrayWithEqualToJsonSubmatcher", path("$.items", #""equalToJson": "[]""#), #"{"items": []}"#,
            true),
        Case(
            "doesNotMatchEmptyObjectWhenSubMatcherExpectsDifferentValue",
            path("$.empty", #""equalToJson": "{\"key\": \"value\"}""#), #"{"empty": {}}"#, false),
        Case(
            "distinguishesBetweenEmptyObjectValueAndFilterResultingInEmptyArray (filter)",
            path("$.items[?(@.id == 999)]"), #"{"items": [{"id": 1}, {"id": 2}]}"#, false),
        Case("doesNotMatchWhenDeepScanReturnsNoResults", path("$..missingKey"), #"{"items": [{"id": 1}]}"#, false),
        Case("doesNotMatchWhenWildcardReturnsNoResults", path("$.items[*].tags"), #"{"items": [{"id": 1}]}"#, false),
        Case(
            "matchesDefinitePathToEmptyArrayVsIndefinitePathReturningEmpty (indefinite)",
            path("$.data[?(@.value == 999)]"), #"{"items": [], "data": [{"value": 1}]}"#, false),
        Case("matchesABasicJsonPathWhenTheExpectedElementIsPresent", path("$.one"), #"{ "one": 1 }"#, true),
        Case("doesNotMatchABasicJsonPathWhenTheExpectedElementIsNotPresent", path("$.one"), #"{ "two": 2 }"#, false),
        Case(
            "matchesOnJsonPathsWithFilters", path("$.numbers[?(@.number == 2)]"),
            #"{"numbers": [{"number": 1}, {"number": 2}]}"#, true),
        Case(
            "matchesOnJsonPathsWithFilters (absent)", path("$.numbers[?(@.number == 2)]"),
            #"{"numbers": [{"number": 7}]}"#, false),
        Case(
            "matchesOnJsonPathsWithDecimalFilters", path("$.numbers[?(@.decimal == '2.3')]"),
            #"{"numbers": [{"number": 1}, {"decimal": 2.3000}]}"#, true),
        Case(
            "matchesOnJsonPathsWithDecimalFiltersWithTrailingZeros", path("$.numbers[?(@.decimal == '2.3000')]"),
            #"{"numbers": [{"number": 1}, {"decimal": 2.3}]}"#, true),
        Case(
            "matchesOnJsonPathsWithRegexFilter", path("$.numbers[?(@.number =~ /2/i)]"),
            #"{"numbers": [{"number": 1}, {"number": 2}]}"#, true),
        Case(
            "matchesOnJsonPathsWithRegexFilter (absent)", path("$.numbers[?(@.number =~ /2/i)]"),
            #"{"numbers": [{"number": 7}]}"#, false),
        Case(
            "matchesOnJsonPathsWithSizeFilter", path("$[?(@.numbers.size() == 2)]"),
            #"{"numbers": [{"number": 1}, {"number": 2}]}"#, true),
        Case(
            "matchesOnJsonPathsWithSizeFilter (one)", path("$[?(@.numbers.size() == 2)]"),
            #"{"numbers": [{"number": 7}]}"#, false),
        Case(
            "matchesOnJsonPathsWithFiltersOnNestedObjects", path("$..thingOne[?(@.innerOne == 11)]"),
            #"{"things": {"thingOne": {"innerOne": 11}, "thingTwo": 2}}"#, true),
        Case(
            "providesEventMessageWhenJsonMatchFailsDueToInvalidJson", path("$.something"), "Not a JSON document", false),
        Case(
            "notifiesWhenMatchingBeingSkippedDueToContentProbablyBeingXml", path("$.something"), "<xml-stuff />", false),
        Case("noMatchOnNullValue", path("$..*"), nil, false),
        Case(
            "matchesNumericExpressionResultAgainstValuePatternWhenSpecified",
            path("$.volumeControl.max", #""equalTo": "11""#), volume, true),
        Case(
            "matchesStringExpressionResultAgainstValuePatternWhenSpecified",
            path("$.volumeControl.max", #""equalTo": "eleven""#), #"{"volumeControl": {"max": "eleven"}}"#, true),
        Case(
            "matchesBooleanExpressionResultAgainstValuePatternWhenSpecified",
            path("$.volumeControl.max", #""equalTo": "true""#), #"{"volumeControl": {"max": true}}"#, true),
        Case(
            "matchesObjectExpressionResultAgainstValuePatternWhenSpecified",
            path("$.volumeControl", #""equalToJson": "{\"max\": 11}""#), volume, true),
        Case(
            "matchesArrayExpressionResultAgainstValuePatternWhenSpecified",
            path("$.volumeControl.max", #""equalToJson": "[1,2,3,11]""#), #"{"volumeControl": {"max": [1, 2, 3, 11]}}"#,
            true),
        Case(
            "matchesNotPresentExpressionResultAgainstAbsentValuePattern",
            path("$.volumeControl.min", #""absent": true"#), #"{"volumeControl": {"max": true}}"#, true),
        Case(
            "matchesNullExpressionResultAgainstAbsentValuePattern", path("$.volumeControl.max", #""absent": true"#),
            #"{"volumeControl": {"max": null}}"#, true),
        Case(
            "returnsTheDistanceFromTheValueMatcherWhenNotAMatch", path("$.volumeControl.max", #""equalTo": "ele""#),
            #"{"volumeControl": {"max": "eleven"}}"#, false),
        Case("correctlyDeserialises", path("$..thing"), #"{"a": {"thing": 1}}"#, true),
        Case(
            "correctlySerialisesWithValuePattern", path("$..thing", #""contains": "123""#),
            #"{"a": {"thing": "x123"}}"#,
            true),
    ]

    /// `doesNotMatchWhenJsonPathWouldResolveToEmptyArray`: WireMock loads `$.RequestDetail.[?(...)]`
    /// (a dot before a bracket) and never matches; petmock refuses it at load, naming it (a
    /// deliberate difference, as for every malformed pattern).
    @Test func aMalformedPathIsALoadErrorNotANeverMatch() throws {
        var decoder = MappingDecoder(file: "m.json")
        let matcher = try #require(
            decoder.matcher(try JSONValue(parsing: Self.path("$.RequestDetail.[?(@=='test222')]")), at: .root))
        var problems: [PatternProblem] = []
        #expect(CompiledMatcher.compile(matcher, at: "$", problems: &problems) == nil)
        #expect(problems.map(\.kind) == ["JSONPath"])
    }

    @Test(arguments: cases)
    func wireMockCase(_ example: Case) throws {
        var decoder = MappingDecoder(file: "m.json")
        let matcher = try #require(
            decoder.matcher(try JSONValue(parsing: example.matcher), at: .root), "\(decoder.problems)")
        var problems: [PatternProblem] = []
        let compiled = try #require(CompiledMatcher.compile(matcher, at: "$", problems: &problems))
        #expect(compiled.matches(example.value) == example.matches, "\(example.source)")
        var again = MappingDecoder(file: "again.json")
        #expect(again.matcher(matcher.json, at: .root) == matcher, "round trip")
    }
}
