import HTTPCore
import JSONKit
import Testing
import XMLKit

@testable import MockEngine
@testable import StubFormat
@testable import StubServerKit

/// `equalToXml` and `matchesXPath`, with cases carried over as data from WireMock's own tests
/// (Apache-2.0): `EqualToXmlPatternTest`, `MatchesXPathPatternTest` (package
/// `com.github.tomakehurst.wiremock.matching`) and `StubbingAcceptanceTest`, in
/// `src/test/java/com/github/tomakehurst/wiremock/`. Each case names the WireMock test.
@Suite struct XMLMatcherParityTests {
    struct Case: Sendable, CustomStringConvertible {
        /// The WireMock test the case comes from.
        let source: String
        /// The body matcher as WireMock JSON.
        let matcher: String
        /// The request body (nil: none).
        let body: String?
        let matches: Bool

        var description: String { source }
    }

    static let things =
        #"<things>\n    <thing characteristic=\"tepid\"/>\n    <thing characteristic=\"tedious\"/>\n</things>"#
    static let soap =
        #"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<soap:Envelope xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\">\n    <soap:Body>\n        <stuff xmlns=\"https://example.com/mynamespace\">\n            <things />\n        </stuff>\n    </soap:Body>\n</soap:Envelope>\n"#
    static let soapBody = unescaped(soap)
    static let thingsBody = unescaped(things)
    static let planets =
        "<solar-system><planet name='Earth' position='3' supportsLife='yes'/><planet name='Venus' position='4'/></solar-system>"
    static let namespaced =
        "<t:thing xmlns:t='http://things' xmlns:s='http://subthings'><s:subThing>The stuff</s:subThing></t:thing>"
    static let inner =
        "<outer>\n    <inner>stuffing</inner>\n    <inner>stuffed</inner>\n    <inner>stuff</inner>\n</outer>"
    static let getValue =
        #"<ns2:GetValue xmlns=\"http://CIS/BIR/PUBL/2014/07/DataContract\" xmlns:ns2=\"http://CIS/BIR/2014/07\" xmlns:ns3=\"http://CIS/BIR/PUBL/2014/07\" xmlns:ns4=\"http://schemas.microsoft.com/2003/10/Serializa  \n        tion/\"/>"#

    /// The text a JSON string's contents stand for.
    static func unescaped(_ json: String) -> String {
        (try? JSONValue(parsing: "\"\(json)\""))?.stringValue ?? ""
    }

    static let cases: [Case] = [
        // EqualToXmlPatternTest
        Case(
            source: "returnsNoMatchAnd1DistanceWhenActualIsNull", matcher: #"{"equalToXml": "\#(things)"}"#, body: nil,
            matches: false),
        Case(
            source: "returnsNoMatchAnd1DistanceWhenActualIsEmpty", matcher: #"{"equalToXml": "\#(things)"}"#, body: "",
            matches: false),
        Case(
            source: "returnsNoMatchAnd1DistanceWhenActualIsNotXml", matcher: #"{"equalToXml": "\#(things)"}"#,
            body: #"{ "markup": "wrong" }"#, matches: false),
        Case(
            source: "returnsExactMatchWhenDocumentsAreIdentical", matcher: #"{"equalToXml": "\#(things)"}"#,
            body: "<?xml version=\"1.0\" encoding=\"utf-8\" ?>\n" + thingsBody, matches: true),
        Case(
            source: "returnsExactMatchWhenDocumentsAreIdenticalOtherThanWhitespace",
            matcher: #"{"equalToXml": "\#(things)"}"#,
            body: #"<things><thing characteristic="tepid"/><thing characteristic="tedious"/></things>"#, matches: true),
        Case(
            source: "returnsNoMatchWhenDocumentsAreTotallyDifferent", matcher: #"{"equalToXml": "\#(things)"}"#,
            body: "<no-things-at-all />", matches: false),
        Case(
            source: "returnsLowDistanceWhenActualDocumentHasMissingElement", matcher: #"{"equalToXml": "\#(things)"}"#,
            body: "<things>\n    <thing characteristic=\"tepid\"/>\n</things>", matches: false),
        Case(
            source: "returnsExactMatchOnNamespacedXml", matcher: #"{"equalToXml": "\#(soap)"}"#, body: soapBody,
            matches: true),
        Case(
            source: "returnsExactMatchOnNamespacedXmlWhenNamespacePrefixesDiffer",
            matcher:
                #"{"equalToXml": "\#(soap.replacingOccurrences("soap:", "shampoo:").replacingOccurrences(":soap=", ":shampoo="))"}"#,
            body: soapBody, matches: true),
        Case(
            source: "doesNotReturnExactMatchWhenNamespaceUriDiffers", matcher: #"{"equalToXml": "\#(soap)"}"#,
            body: soapBody.replacingOccurrences("mynamespace", "the-wrong-namespace"), matches: false),
        Case(
            source: "returnsExactMatchWhenAttributesAreInDifferentOrder",
            matcher: #"{"equalToXml": "<my-attribs one=\"1\" two=\"2\" three=\"3\"/>"}"#,
            body: #"<my-attribs two="2" one="1" three="3"/>"#, matches: true),
        Case(
            source: "returnsExactMatchWhenElementsAreInDifferentOrder",
            matcher: #"{"equalToXml": "<my-elements>\n    <one />\n    <two />\n    <three />\n</my-elements>"}"#,
            body: "<my-elements>\n    <two />\n    <three />\n    <one />\n</my-elements>", matches: true),
        Case(
            source: "returnsNoMatchWhenTagNamesDifferAndContentIsSame", matcher: #"{"equalToXml": "<one>Hello</one>"}"#,
            body: "<two>Hello</two>", matches: false),
        Case(
            source: "logsASensibleErrorMessageWhenActualXmlIsBadlyFormed",
            matcher: #"{"equalToXml": "<well-formed />"}"#,
            body: "badly-formed >", matches: false),
        Case(
            source: "doesNotFetchDtdBecauseItCouldResultInAFailedMatch",
            matcher:
                #"{"equalToXml": "<!DOCTYPE my_request SYSTEM \"https://thishostname.doesnotexist.com/one.dtd\"><do_request/>"}"#,
            body: #"<!DOCTYPE my_request SYSTEM "https://thishostname.doesnotexist.com/one.dtd"><do_request/>"#,
            matches: true),
        Case(
            source: "returnsMatchWhenTextNodeIsIgnored",
            matcher:
                ##"{"equalToXml": "<a>#{xmlunit.ignore}</a>", "enablePlaceholders": true, "placeholderOpeningDelimiterRegex": "#\\{", "placeholderClosingDelimiterRegex": "}"}"##,
            body: "<a>123</a>", matches: true),
        Case(
            source: "returnsMatchWhenTextNodeIsIgnored_DefaultDelimiters",
            matcher: #"{"equalToXml": "<a>${xmlunit.ignore}</a>", "enablePlaceholders": true}"#, body: "<a>123</a>",
            matches: true),
        Case(
            source: "namespaceComparisonCanBeExcluded",
            matcher:
                #"{"equalToXml": "<?xml version=\"1.0\"?>\n<stuff xmlns:th=\"https://thing.com\">\n    <th:thing>Match this</th:thing>\n</stuff>", "exemptedComparisons": ["NAMESPACE_URI"]}"#,
            body:
                "<?xml version=\"1.0\"?>\n<stuff xmlns:st=\"https://stuff.com\">\n    <st:thing>Match this</st:thing>\n</stuff>",
            matches: true),
        Case(
            source: "namespaceComparisonCanBeExcluded2",
            matcher: #"{"equalToXml": "\#(getValue)", "exemptedComparisons": ["NAMESPACE_URI"]}"#,
            body:
                "<ns3:GetValue xmlns=\"http://CIS/BIR/PUBL/2014/07\" xmlns:ns2=\"http://CIS/BIR/PUBL/2014/07/DataContract\" xmlns:ns3=\"http://CIS/BIR/2014/07\" xmlns:ns4=\"http://schemas.microsoft.com/2003/10/Serializa\n        tion/\"/>",
            matches: true),
        Case(
            source: "subEventIsReturnedOnXmlParsingError", matcher: #"{"equalToXml": "<things />"}"#, body: "<wrong",
            matches: false),
        Case(
            source: "ignoreOrderOfSameNodeOnSameLevel",
            matcher: #"{"equalToXml": "<body><entry>1</entry><entry>2</entry></body>", "ignoreOrderOfSameNode": true}"#,
            body: "<body><entry>2</entry><entry>1</entry></body>", matches: true),
        Case(
            source: "dontIgnoreOrderOfSameNodeOnSameLevel",
            matcher:
                #"{"equalToXml": "<body><entry>1</entry><entry>2</entry></body>", "ignoreOrderOfSameNode": false}"#,
            body: "<body><entry>2</entry><entry>1</entry></body>", matches: false),
        Case(
            source: "doesNotMatchWhenSameNodeOnSameLevelHasDifferentValues",
            matcher: #"{"equalToXml": "<body><entry>1</entry><entry>3</entry></body>", "ignoreOrderOfSameNode": true}"#,
            body: "<body><entry>2</entry><entry>1</entry></body>", matches: false),
        Case(
            source: "matchesIfMultipleSameNodesOnSameLevelWithDifferentNodes",
            matcher:
                #"{"equalToXml": "<body><entry>1</entry><entry>2</entry><other>2</other></body>", "ignoreOrderOfSameNode": true}"#,
            body: "<body><entry>2</entry><entry>1</entry><other>2</other></body>", matches: true),
        Case(
            source: "matchesIfTwoIdenticalChildNodesAreEmpty",
            matcher: #"{"equalToXml": "<body><entry/><entry/></body>", "ignoreOrderOfSameNode": true}"#,
            body: "<body><entry/><entry/></body>", matches: true),
        Case(
            source: "matchesIfCommentsDiffer",
            matcher: #"{"equalToXml": "<body><!-- Comment --><entry/><entry/></body>", "ignoreOrderOfSameNode": true}"#,
            body: "<body><entry/><entry/><!-- A different comment --></body>", matches: true),
        // MatchesXPathPatternTest
        Case(
            source: "returnsExactMatchWhenXPathMatches", matcher: #"{"matchesXPath": "//planet[@name='Earth']"}"#,
            body: planets, matches: true),
        Case(
            source: "returnsNoExactMatchWhenXPathDoesNotMatch",
            matcher: #"{"matchesXPath": "//star[@name='alpha centauri']"}"#, body: planets, matches: false),
        Case(
            source: "returnsNoExactMatchWhenXmlIsBadlyFormed",
            matcher: #"{"matchesXPath": "//star[@name='alpha centauri']"}"#,
            body: String(planets.dropFirst()), matches: false),
        Case(
            source: "matchesNamespacedXmlWhenNamespacesSpecified",
            matcher:
                #"{"matchesXPath": "//sub:subThing[.='The stuff']", "xPathNamespaces": {"sub": "http://subthings", "t": "http://things"}}"#,
            body: namespaced, matches: true),
        Case(
            source: "matchesNamespacedXmlFromLocalNames",
            matcher: #"{"matchesXPath": "/thing/subThing[.='The stuff']"}"#,
            body: namespaced, matches: true),
        Case(
            source: "matchesAgainstValuePatternWhenSingleElementReturnedFromXPath",
            matcher: #"{"matchesXPath": {"expression": "//inner/text()", "matches": "[a-z]*"}}"#,
            body: "<outer>\n    <inner>stuff</inner>\n</outer>", matches: true),
        Case(
            source: "matchesAgainstValuePatternWhenMultipleElementsReturnedFromXPath",
            matcher: #"{"matchesXPath": {"expression": "//inner/text()", "equalTo": "stuff"}}"#, body: inner,
            matches: true),
        Case(
            source: "returnsTheMatchFromTheClosestElementWhenNoneMatchExactly",
            matcher: #"{"matchesXPath": {"expression": "//inner/text()", "equalTo": "stuff"}}"#,
            body: inner.replacingOccurrences("<inner>stuff</inner>", "<inner>stuffy</inner>"), matches: false),
        Case(
            source: "matchesAttributeAgainstValuePattern",
            matcher: #"{"matchesXPath": {"expression": "/outer/@inner", "equalTo": "Stuff", "caseInsensitive": true}}"#,
            body: #"<outer inner="stuff"/>"#, matches: true),
        Case(
            source: "returnsAMaxDistanceNoMatchWhenNoNodesReturnedAndValuePatternIsPresent",
            matcher:
                #"{"matchesXPath": {"expression": "/outer/@nothing", "equalTo": "Stuff", "caseInsensitive": true}}"#,
            body: #"<outer inner="stuff"/>"#, matches: false),
        Case(
            source: "matchesComplexElementAgainstValuePattern",
            matcher: #"{"matchesXPath": {"expression": "/outer/inner", "equalToXml": "<inner>stuff</inner>"}}"#,
            body: "<outer>\n    <inner>stuff</inner>\n</outer>", matches: true),
        Case(source: "noMatchOnNullValue", matcher: #"{"matchesXPath": "//*"}"#, body: nil, matches: false),
        // StubbingAcceptanceTest
        Case(
            source: "matchingOnRequestBodyWithAdvancedXPath (6666)",
            matcher: #"{"matchesXPath": {"expression": "//counter/text()", "equalTo": "123"}}"#,
            body: "<counter>6666</counter>", matches: false),
        Case(
            source: "matchingOnRequestBodyWithAdvancedXPath (123)",
            matcher: #"{"matchesXPath": {"expression": "//counter/text()", "equalTo": "123"}}"#,
            body: "<counter>123</counter>", matches: true),
    ]

    /// An `equalToXml` matcher's JSON with a namespace mode and exempted comparisons.
    static func xml(_ expected: String, _ awareness: String, exempting: [String] = []) -> String {
        let quoted = JSONValue.string(expected).serialized()
        let exempted =
            exempting.isEmpty
            ? "" : #", "exemptedComparisons": ["# + exempting.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        return #"{"equalToXml": \#(quoted), "namespaceAwareness": "\#(awareness)"\#(exempted)}"#
    }

    static let element1 = #"<ns1:companyID xmlns:ns1="https://thing.com">100</ns1:companyID>"#
    static let attribute1 = #"<companyID xmlns:ns1="https://thing.com" ns1:abc="123">100</companyID>"#
    static let xmlnsExpected =
        #"<GetValue xmlns:ns2="http://CIS/BIR/2014/07" xmlns:ns3="http://CIS/BIR/PUBL/2014/07" xmlns:ns4="http://schemas.microsoft.com/2003/10/Serialization/"/>"#
    static let xmlnsActual =
        #"<GetValue xmlns:ns2="http://CIS/BIR/PUBL/2014/07/DataContract" xmlns:ns3="http://CIS/BIR/2014/07" xmlns:ns4="http://schemas.microsoft.com/2003/10/Serialization/" xmlns:ns5="http://stuff.com"/>"#

    /// `namespaceAwareness` cases from WireMock 3.12's `EqualToXmlPatternTest` (STRICT and
    /// NONE; LEGACY is refused by petmock), one case per assertion.
    static let namespaceCases: [Case] = [
        Case(
            source: "noNamespaceAwarenessAllowsUnboundNamespacesOnElements",
            matcher: xml("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<tns:companyID>100</tns:companyID>\n", "NONE"),
            body: #"<?xml version="1.0" encoding="utf-8"?><tns:companyID>100</tns:companyID>"#, matches: true),
        Case(
            source: "noNamespaceAwarenessAllowsUnboundNamespacesOnAttributes",
            matcher: xml(#"<companyID tns:abc="123">100</companyID>"#, "NONE"),
            body: #"<companyID tns:abc="123">100</companyID>"#, matches: true),
        Case(
            source: "strictNamespaceAwarenessMatchesWhenElementNamespacePrefixesDifferUnless",
            matcher: xml(element1, "STRICT"), body: element1.replacingOccurrences("ns1", "ns2"), matches: true),
        Case(
            source:
                "strictNamespaceAwarenessMatchesWhenElementNamespacePrefixesDifferUnless (exempting NAMESPACE_PREFIX)",
            matcher: xml(element1, "STRICT", exempting: ["NAMESPACE_PREFIX"]),
            body: element1.replacingOccurrences("ns1", "ns2"), matches: true),
        Case(
            source: "strictNamespaceAwarenessMatchesWhenAttributeNamespacePrefixesDiffer",
            matcher: xml(attribute1, "STRICT"), body: attribute1.replacingOccurrences("ns1", "ns2"), matches: true),
        Case(
            source: "strictNamespaceAwarenessMatchesWhenAttributeNamespacePrefixesDiffer (exempting NAMESPACE_PREFIX)",
            matcher: xml(attribute1, "STRICT", exempting: ["NAMESPACE_PREFIX"]),
            body: attribute1.replacingOccurrences("ns1", "ns2"), matches: true),
        Case(
            source: "strictNamespaceAwarenessDoesNotMatchWhenElementNamespaceUrisDifferUnlessExplicitlyExcluded",
            matcher: xml(element1.replacingOccurrences("thing", "stuff"), "STRICT"), body: element1, matches: false),
        Case(
            source:
                "strictNamespaceAwarenessDoesNotMatchWhenElementNamespaceUrisDifferUnlessExplicitlyExcluded (exempting)",
            matcher: xml(element1.replacingOccurrences("thing", "stuff"), "STRICT", exempting: ["NAMESPACE_URI"]),
            body: element1, matches: true),
        Case(
            source: "strictNamespaceAwarenessDoesNotMatchWhenAttributeNamespaceUrisDiffer",
            matcher: xml(attribute1, "STRICT"), body: attribute1.replacingOccurrences("thing", "stuff"), matches: false),
        Case(
            source: "noNamespaceAwarenessDoesNotMatchWhenElementNamespacePrefixesDiffer (STRICT)",
            matcher: xml(element1.replacingOccurrences("thing", "stuff"), "STRICT"),
            body: element1.replacingOccurrences("thing", "stuff").replacingOccurrences("ns1", "ns2"), matches: true),
        Case(
            source: "noNamespaceAwarenessDoesNotMatchWhenElementNamespacePrefixesDiffer",
            matcher: xml(element1, "NONE"), body: element1.replacingOccurrences("ns1", "ns2"), matches: false),
        Case(
            source: "noNamespaceAwarenessDoesNotMatchWhenElementNamespacePrefixesDiffer (exempting NAMESPACE_PREFIX)",
            matcher: xml(element1, "NONE", exempting: ["NAMESPACE_PREFIX"]),
            body: element1.replacingOccurrences("ns1", "ns2"), matches: false),
        Case(
            source: "noNamespaceAwarenessDoesNotMatchWhenAttributeNamespacePrefixesDiffer (STRICT)",
            matcher: xml(attribute1, "STRICT"), body: attribute1.replacingOccurrences("ns1", "ns2"), matches: true),
        Case(
            source: "noNamespaceAwarenessDoesNotMatchWhenAttributeNamespacePrefixesDiffer",
            matcher: xml(attribute1, "NONE"), body: attribute1.replacingOccurrences("ns1", "ns2"), matches: false),
        Case(
            source: "noNamespaceAwarenessDoesNotMatchWhenAttributeNamespacePrefixesDiffer (exempting NAMESPACE_PREFIX)",
            matcher: xml(attribute1, "NONE", exempting: ["NAMESPACE_PREFIX"]),
            body: attribute1.replacingOccurrences("ns1", "ns2"), matches: false),
        Case(
            source: "noNamespaceAwarenessDoesNotMatchWhenElementNamespaceUrisDiffer",
            matcher: xml(element1, "NONE"), body: element1.replacingOccurrences("thing", "stuff"), matches: false),
        Case(
            source: "noNamespaceAwarenessDoesNotMatchWhenElementNamespaceUrisDiffer (exempting NAMESPACE_URI)",
            matcher: xml(element1, "NONE", exempting: ["NAMESPACE_URI"]),
            body: element1.replacingOccurrences("thing", "stuff"), matches: false),
        Case(
            source: "noNamespaceAwarenessDoesNotMatchWhenAttributeNamespaceUrisDiffer",
            matcher: xml(attribute1, "NONE"), body: attribute1.replacingOccurrences("thing", "stuff"), matches: false),
        Case(
            source: "noNamespaceAwarenessDoesNotMatchWhenAttributeNamespaceUrisDiffer (exempting NAMESPACE_URI)",
            matcher: xml(attribute1, "NONE", exempting: ["NAMESPACE_URI"]),
            body: attribute1.replacingOccurrences("thing", "stuff"), matches: false),
        Case(
            source: "xmlnsNamespacedAttributesAreNotComparedWhenUsingStrictNamespaceAwareness",
            matcher: xml(xmlnsExpected, "STRICT"), body: xmlnsActual, matches: true),
        Case(
            source: "xmlnsNamespacedAttributesAreNotComparedWhenUsingStrictNamespaceAwareness (NONE)",
            matcher: xml(xmlnsExpected, "NONE"), body: xmlnsActual, matches: false),
        Case(
            source: "xmlnsNamespacedAttributesAreComparedWhenUsingNoNamespaceAwareness (exempting NAMESPACE_URI)",
            matcher: xml(xmlnsExpected, "NONE", exempting: ["NAMESPACE_URI"]), body: xmlnsActual, matches: false),
        Case(
            source:
                "defaultNamespaceUrisOfXmlnsAttributesAreComparedWhenUsingStrictNamespaceAwarenessUnlessExplicitlyExcluded",
            matcher: xml(#"<GetValue xmlns="http://thing.com"/>"#, "STRICT"),
            body: #"<GetValue xmlns="http://stuff.com"/>"#, matches: false),
        Case(
            source:
                "defaultNamespaceUrisOfXmlnsAttributesAreComparedWhenUsingStrictNamespaceAwarenessUnlessExplicitlyExcluded (exempting)",
            matcher: xml(#"<GetValue xmlns="http://thing.com"/>"#, "STRICT", exempting: ["NAMESPACE_URI"]),
            body: #"<GetValue xmlns="http://stuff.com"/>"#, matches: true),
        Case(
            source: "defaultXmlnsAttributesAreComparedWhenUsingNoNamespaceAwareness",
            matcher: xml(#"<GetValue xmlns="http://thing.com"/>"#, "NONE"),
            body: #"<GetValue xmlns="http://stuff.com"/>"#, matches: false),
        Case(
            source: "defaultXmlnsAttributesAreComparedWhenUsingNoNamespaceAwareness (exempting NAMESPACE_URI)",
            matcher: xml(#"<GetValue xmlns="http://thing.com"/>"#, "NONE", exempting: ["NAMESPACE_URI"]),
            body: #"<GetValue xmlns="http://stuff.com"/>"#, matches: false),
    ]

    @Test(arguments: namespaceCases)
    func wireMockNamespaceCase(_ example: Case) throws {
        try wireMockCase(example)
    }

    static func compiled(_ json: String) throws -> (StringMatcher, CompiledMatcher) {
        var decoder = MappingDecoder(file: "m.json")
        let matcher = try #require(decoder.matcher(try JSONValue(parsing: json), at: .root), "\(decoder.problems)")
        #expect(decoder.problems.isEmpty, "\(decoder.problems)")
        var problems: [PatternProblem] = []
        let compiled = try #require(CompiledMatcher.compile(matcher, at: "$", problems: &problems), "\(problems)")
        return (matcher, compiled)
    }

    @Test(arguments: cases)
    func wireMockCase(_ example: Case) throws {
        let (matcher, compiled) = try Self.compiled(example.matcher)
        #expect(
            compiled.matches(example.body, bytes: example.body.map { Array($0.utf8) }) == example.matches,
            "\(example.source)")
        // Written back as WireMock JSON, the matcher reads back the same.
        var again = MappingDecoder(file: "again.json")
        #expect(again.matcher(matcher.json, at: .root) == matcher, "round trip of \(example.source)")
    }
}

extension String {
    fileprivate func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

/// Load errors, near misses and the admin JSON of the XML matchers.
@Suite struct XMLMatcherLoadingTests {
    /// The problems of a mapping with one body pattern: decoding, then compiling.
    static func problems(_ bodyPattern: String) throws -> [String] {
        let json = #"{"request": {"method": "POST", "url": "/x", "bodyPatterns": [\#(bodyPattern)]}, "response": {}}"#
        let mapping: StubMapping
        do {
            mapping = try StubMapping(json: json)
        } catch {
            guard case .invalidStubs(let problems) = error else { return ["\(error)"] }
            return problems.map(\.description)
        }
        do {
            _ = try StubServer(mappings: [mapping])
            return []
        } catch {
            guard case .setup(.load(.invalidStubs(let problems))) = error else { return ["\(error)"] }
            return problems.map(\.description)
        }
    }

    @Test(arguments: [
        (#"{"equalToXml": "<a><b></a>"}"#, "request.bodyPatterns[0].equalToXml: expected a valid XML document"),
        (#"{"equalToXml": "<p:a/>"}"#, "request.bodyPatterns[0].equalToXml: expected a valid XML document"),
        // strictNamespaceAwarenessDoesNotAllowUnboundNamespacesOn{Elements,Attributes}
        (
            #"{"equalToXml": "<companyID tns:abc=\"123\">100</companyID>", "namespaceAwareness": "STRICT"}"#,
            "request.bodyPatterns[0].equalToXml: expected a valid XML document"
        ),
        (
            #"{"equalToXml": "<a/>", "exemptedComparisons": ["NAMESPACE_URI", "ATTRIBUTE_VALUE"]}"#,
            "request.bodyPatterns[0].exemptedComparisons[1]: expected an XMLUnit comparison type"
        ),
        (
            #"{"equalToXml": "<a/>", "namespaceAwareness": "LEGACY"}"#,
            "request.bodyPatterns[0].namespaceAwareness: expected STRICT or NONE"
        ),
        (
            #"{"equalToXml": "<a>${xmlunit.isDateTime}</a>", "enablePlaceholders": true}"#,
            "request.bodyPatterns[0].equalToXml: expected a valid XML placeholder"
        ),
        (
            #"{"equalToXml": "<a/>", "enablePlaceholders": true, "placeholderOpeningDelimiterRegex": "("}"#,
            "request.bodyPatterns[0].placeholderOpeningDelimiterRegex: expected a valid regular expression"
        ),
        (
            #"{"matchesXPath": "//\\&&&&&"}"#,
            "request.bodyPatterns[0].matchesXPath: expected a valid XPath 1.0 expression, found '//\\&&&&&' (invalid expression (at character 3"
        ),
        (
            #"{"matchesXPath": {"expression": "//a", "matches": "("}}"#,
            "request.bodyPatterns[0].matchesXPath.matches: expected a valid regular expression"
        ),
        (
            #"{"matchesXPath": "//a", "xPathNamespaces": {"a:b": "urn:x"}}"#,
            "request.bodyPatterns[0].xPathNamespaces['a:b']: expected a namespace prefix"
        ),
        (
            #"{"equalTo": "x", "xPathNamespaces": {"a": "urn:x"}}"#,
            "request.bodyPatterns[0].xPathNamespaces: expected"
        ),
        (#"{"matchesXPath": "//a", "ignoreOrderOfSameNode": true}"#, "request.bodyPatterns[0].ignoreOrderOfSameNode"),
    ])
    func malformedPatternsAreLoadErrorsWithTheirPath(pattern: String, expected: String) throws {
        let problems = try Self.problems(pattern)
        #expect(problems.contains { $0.contains("error: ") && $0.contains("." + expected) }, "\(problems)")
    }

    @Test func delimitersWithoutPlaceholdersWarn() throws {
        var decoder = MappingDecoder(file: "m.json")
        let json = #"{"equalToXml": "<a/>", "placeholderOpeningDelimiterRegex": "\\["}"#
        #expect(decoder.matcher(try JSONValue(parsing: json), at: .root) != nil)
        #expect(
            decoder.problems.map(\.description).contains { $0.contains("warning: $.placeholderOpeningDelimiterRegex") })
    }

    @Test func theNearMissNamesTheFirstXMLDifference() throws {
        let pattern = RequestPattern(
            method: .post, url: .url("/x"),
            bodyPatterns: [
                .equalToXml(XMLMatch("<pet><name>Rex</name><age>3</age></pet>")),
                .matchesXPath(XPathMatch("//age/text()", sub: .equalTo("4"))),
            ])
        var problems: [PatternProblem] = []
        let compiled = try #require(CompiledRequestPattern.compile(pattern, problems: &problems))
        let request = MatchableRequest(
            method: .post, target: "/x", headers: HTTPHeaders(),
            body: Array("<pet><name>Max</name><age>3</age></pet>".utf8))
        let bodies = compiled.evaluate(request).filter { $0.name == "body" }
        #expect(
            bodies.first?.actual.hasSuffix(
                "(first difference: TEXT_VALUE at /pet[1]/name[1]/text()[1]: expected 'Rex', found 'Max')") == true,
            "\(bodies)")
        #expect(bodies.last?.actual.hasSuffix("('//age/text()' selected '3')") == true, "\(bodies)")
        let notXML = MatchableRequest(method: .post, target: "/x", headers: HTTPHeaders(), body: Array("<pet>".utf8))
        #expect(compiled.evaluate(notXML).first { $0.name == "body" }?.actual.contains("(not XML: line 1") == true)
    }

    @Test func stubsChooseByXMLBodyAndExplainTheMiss() throws {
        let mappings = try [
            #"{"name": "rex", "request": {"method": "POST", "url": "/pets", "bodyPatterns": [{"equalToXml": "<pet><name>Rex</name></pet>"}]}, "response": {"status": 201}}"#,
            #"{"name": "soap", "request": {"method": "POST", "url": "/pets", "bodyPatterns": [{"matchesXPath": "//s:Body/add", "xPathNamespaces": {"s": "urn:soap"}}]}, "response": {"status": 202}}"#,
        ].map { try StubMapping(json: $0) }
        let store = try StubStore(loader: nil, codeMappings: mappings, serverVariant: nil)
        let index = store.snapshot().index
        func post(_ body: String) -> MatchableRequest {
            MatchableRequest(method: .post, target: "/pets", headers: HTTPHeaders(), body: Array(body.utf8))
        }
        let rex = post("<pet>\n  <name>Rex</name>\n</pet>")
        #expect(index.match(rex, variant: nil, scenarios: ScenarioStore())?.mapping.name == "rex")
        let soap = post("<e:Envelope xmlns:e='urn:soap'><e:Body><add/></e:Body></e:Envelope>")
        #expect(index.match(soap, variant: nil, scenarios: ScenarioStore())?.mapping.name == "soap")
        let max = post("<pet><name>Max</name></pet>")
        #expect(index.match(max, variant: nil, scenarios: ScenarioStore()) == nil)
        let misses = index.nearMisses(for: max, variant: nil, scenarios: ScenarioStore())
        let closest = try #require(misses.first)
        #expect(closest.mapping.name == "rex", "the XML distance ranks the nearer document first")
        let body = try #require(closest.differences.first { $0.name == "body" })
        #expect(body.actual.contains("TEXT_VALUE at /pet[1]/name[1]/text()[1]: expected 'Rex', found 'Max'"))
        // Matching, ranking and explaining read the body as XML once.
        #expect(max.bodyXMLDocuments.count == 1 && max.bodyXPathDocuments.count == 1)
    }

    @Test func everyOptionRoundTripsThroughTheAdminJSON() throws {
        let json = #"""
            {"equalToXml": "<a/>", "enablePlaceholders": true, "placeholderOpeningDelimiterRegex": "\\[",
             "placeholderClosingDelimiterRegex": "]", "exemptedComparisons": ["SCHEMA_LOCATION", "NAMESPACE_URI"],
             "ignoreOrderOfSameNode": true, "namespaceAwareness": "NONE"}
            """#
        var decoder = MappingDecoder(file: "m.json")
        let matcher = try #require(decoder.matcher(try JSONValue(parsing: json), at: .root))
        #expect(matcher.json == (try JSONValue(parsing: json)))
        let xpath =
            #"{"matchesXPath": {"expression": "/thing", "contains": "123"}, "xPathNamespaces": {"one": "http://one.com/"}}"#
        let xpathMatcher = try #require(decoder.matcher(try JSONValue(parsing: xpath), at: .root))
        #expect(xpathMatcher.json == (try JSONValue(parsing: xpath)))
        #expect(decoder.problems.isEmpty, "\(decoder.problems)")
    }

    @Test(arguments: [
        (#"{"matchesXPath": {"expression": "//a", "absent": true}}"#, "<r><b/></r>", true),
        (#"{"matchesXPath": {"expression": "//b", "absent": true}}"#, "<r><b/></r>", false),
        (
            #"{"matchesXPath": {"expression": "//i/text()", "hasExactly": [{"equalTo": "2"}, {"equalTo": "1"}]}}"#,
            "<r><i>1</i><i>2</i></r>", true
        ),
        (
            #"{"matchesXPath": {"expression": "//i/text()", "includes": [{"equalTo": "3"}]}}"#,
            "<r><i>1</i><i>2</i></r>", false
        ),
        (#"{"matchesXPath": "count(//i) = 2"}"#, "<r><i>1</i><i>2</i></r>", true),
        (#"{"matchesXPath": {"expression": "count(//i)", "equalTo": "2"}}"#, "<r><i>1</i><i>2</i></r>", true),
        (#"{"matchesXPath": {"expression": "//i", "not": {"contains": "3"}}}"#, "<r><i>1</i></r>", true),
    ])
    func subMatchersOnTheSelectedValues(matcher json: String, body: String, expected: Bool) throws {
        let (_, compiled) = try XMLMatcherParityTests.compiled(json)
        #expect(compiled.matches(body) == expected, "\(json) on \(body)")
    }

    @Test func hostileBodiesAreRefusedQuickly() throws {
        let (_, compiled) = try XMLMatcherParityTests.compiled(#"{"matchesXPath": "count(//*[count(//*) > 1]) > 0"}"#)
        let wide = "<a>" + String(repeating: "<b/>", count: 20_000) + "</a>"
        // Quadratic XPath over a wide document stops at libxml2's operation limit: no match.
        #expect(compiled.matches(wide) == false)
        let (_, equality) = try XMLMatcherParityTests.compiled(#"{"equalToXml": "<lolz/>"}"#)
        var bomb = #"<!DOCTYPE lolz [<!ENTITY lol0 "lol">"#
        for level in 1...9 {
            bomb += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
        }
        #expect(equality.matches(bomb + "]><lolz>&lol9;</lolz>") == false)
    }
}
