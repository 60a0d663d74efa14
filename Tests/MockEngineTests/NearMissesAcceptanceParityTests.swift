import Testing

/// WireMock's `NearMissesAcceptanceTest` (Apache-2.0, `src/test/java/com/github/tomakehurst/wiremock/`)
/// carried over as data: the admin calls behind its Java client's `findNearMissesForAllUnmatched`,
/// `findUnmatchedRequests` and `findNearMissesFor(...)`, and the order of what they answer.
@Suite struct NearMissesAcceptanceParityTests {
    static func stub(_ url: String, _ header: String, _ value: String) -> String {
        #"{"request": {"method": "GET", "url": "\#(url)", "headers": {"\#(header)": {"equalTo": "\#(value)"}}}, "response": {"status": 200}}"#
    }

    static let three = [
        stub("/mypath", "My-Header", "matched"), stub("/otherpath", "My-Header", "otherheaderval"),
        stub("/yet/another/path", "X-Alt-Header", "matchonthis"),
    ]
    /// WireMock ranks `/yet/another/path` (another URL, another header) before `/mypath` (another
    /// URL, the same header with another value); petmock's mean of per-criterion distances puts
    /// `/mypath` second. Near-miss ranking is a heuristic: a deliberate difference.
    static let nearestFirst = #"["/otherpath","/mypath","/yet/another/path"]"#
    static let ranking = "near misses ranked by petmock's distances (WireMock: /otherpath, /yet/another/path, /mypath)"

    static let cases: [AcceptanceCase] = [
        AcceptanceCase(
            "nearMisses", three,
            [
                Probe("GET", "/otherpath", headers: [("My-Header", "notmatched")], status: 404),
                Probe(
                    "GET", "/__admin/requests/unmatched/near-misses", status: 200,
                    json: [
                        "$.nearMisses[*].request.url": #"["/otherpath","/otherpath","/otherpath"]"#,
                        "$.nearMisses[*].stubMapping.request.url": nearestFirst,
                    ]),
            ], deliberate: ranking),
        AcceptanceCase(
            "returnsAllUnmatchedRequests", [stub("/mypath", "My-Header", "matched")],
            [
                Probe("GET", "/unmatched/path", status: 404),
                Probe(
                    "GET", "/__admin/requests/unmatched", status: 200,
                    json: ["$.requests[*].url": #"["/unmatched/path"]"#]),
            ]),
        AcceptanceCase(
            "returnsStubMappingNearMissesForARequest", three,
            [
                Probe(
                    "POST", "/__admin/near-misses/request",
                    body: #"{"url": "/otherpath", "method": "GET", "headers": {"My-Header": "notmatched"}}"#,
                    status: 200,
                    json: [
                        "$.nearMisses[*].request.url": #"["/otherpath","/otherpath","/otherpath"]"#,
                        "$.nearMisses[*].stubMapping.request.url": nearestFirst,
                    ])
            ], deliberate: ranking),
        AcceptanceCase(
            "returnsRequestNearMissesForARequestPattern", [],
            [
                Probe("GET", "/actual11", status: 404), Probe("GET", "/actual42", status: 404),
                Probe(
                    "POST", "/__admin/near-misses/request-pattern",
                    body: #"{"method": "GET", "url": "/actual4", "bodyPatterns": [{"contains": "thing"}]}"#,
                    status: 200,
                    json: ["$.nearMisses[*].request.url": #"["/actual42","/actual11"]"#]),
            ]),
    ]

    @Test(arguments: cases)
    func wireMockCase(_ example: AcceptanceCase) throws {
        try example.run()
    }
}
