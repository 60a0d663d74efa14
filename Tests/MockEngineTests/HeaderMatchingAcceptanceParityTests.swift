import Testing

/// WireMock's `HeaderMatchingAcceptanceTest` and `UrlMatchingAcceptanceTest` (Apache-2.0,
/// `src/test/java/com/github/tomakehurst/wiremock/`, mappings from its `MappingJsonSamples`)
/// carried over as data.
@Suite struct HeaderMatchingAcceptanceParityTests {
    static func stub(_ url: String, _ headers: String, status: Int) -> String {
        #"{"request": {"method": "GET", "url": "\#(url)", "headers": {\#(headers)}}, "response": {"status": \#(status), "headers": {"Content-Type": "text/xml"}}}"#
    }

    static let cases: [AcceptanceCase] = [
        AcceptanceCase(
            "HeaderMatchingAcceptanceTest.mappingWithExactUrlMethodAndHeaderMatchingIsCreatedAndReturned",
            [
                stub(
                    "/header/dependent",
                    #""Accept": {"equalTo": "text/xml"}, "If-None-Match": {"equalTo": "abcd1234"}"#, status: 304)
            ],
            [
                Probe(
                    "GET", "/header/dependent", headers: [("Accept", "text/xml"), ("If-None-Match", "abcd1234")],
                    status: 304),
                Probe("GET", "/header/dependent", headers: [("Accept", "text/xml")], status: 404),
            ]),
        AcceptanceCase(
            "HeaderMatchingAcceptanceTest.mappingMatchedWithRegexHeaders",
            [
                stub(
                    "/header/match/dependent",
                    #""Accept": {"matches": "(.*)xml(.*)"}, "If-None-Match": {"matches": "([a-z0-9]*)"}"#, status: 304)
            ],
            [
                Probe(
                    "GET", "/header/match/dependent", headers: [("Accept", "text/xml"), ("If-None-Match", "abcd1234")],
                    status: 304)
            ]),
        AcceptanceCase(
            "HeaderMatchingAcceptanceTest.mappingMatchedWithNegativeRegexHeader",
            [stub("/header/match/dependent", #""Accept": {"doesNotMatch": "(.*)xml(.*)"}"#, status: 200)],
            [
                Probe("GET", "/header/match/dependent", headers: [("Accept", "text/xml")], status: 404),
                Probe("GET", "/header/match/dependent", headers: [("Accept", "application/json")], status: 200),
            ]),
        AcceptanceCase(
            "UrlMatchingAcceptanceTest.mappingMatchedWithRegexUrl",
            [#"{"request": {"method": "GET", "urlPattern": "/one/(.*?)/three"}, "response": {"body": "Matched!"}}"#],
            [
                Probe("GET", "/one/two/three", status: 200, bodyContains: "Matched!"),
                Probe("GET", "/one/two/four", status: 404),
            ]),
    ]

    @Test(arguments: cases)
    func wireMockCase(_ example: AcceptanceCase) throws {
        try example.run()
    }
}
