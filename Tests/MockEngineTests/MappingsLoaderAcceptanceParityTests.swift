import Testing

/// WireMock's `MappingsLoaderAcceptanceTest` (Apache-2.0, `src/test/java/com/github/tomakehurst/wiremock/`,
/// its folders `src/test/resources/test-requests` and `multi-stub`) carried over as data: a stub
/// folder, then requests and the admin listing. Left out: `mappingsLoadedViaClasspath` (Java's
/// class path).
@Suite struct MappingsLoaderAcceptanceParityTests {
    static let cases: [AcceptanceCase] = [
        AcceptanceCase(
            "mappingsLoadedFromJsonFiles", [],
            [
                Probe("GET", "/canned/resource/1", status: 200),
                Probe("GET", "/canned/resource/2", status: 401, bodyContains: "Not allowed!"),
            ],
            files: [
                "mappings/200-example.json":
                    #"{"request": {"method": "GET", "url": "/canned/resource/1"}, "response": {"status": 200}}"#,
                "mappings/401-example.json":
                    #"{"request": {"method": "GET", "url": "/canned/resource/2"}, "response": {"headers": {"Content-Type": "text/plain"}, "body": "Not allowed!", "status": 401}}"#,
            ]),
        AcceptanceCase(
            "loadsStubMappingsFromAMixtureOfSingleAndMultiStubFiles", [],
            [
                Probe(
                    "GET", "/__admin/mappings", status: 200,
                    json: [
                        "$.meta.total": "[4]",
                        "$.mappings[?(@.request.url == '/single/1' || @.request.url =~ /\\/multi\\/[123]/)].request.method":
                            #"["GET","GET","GET","GET"]"#,
                    ]),
                Probe("GET", "/multi/2", status: 200), Probe("GET", "/single/1", status: 200),
            ],
            files: [
                "mappings/multi.json":
                    #"{"mappings": [{"request": {"method": "GET", "url": "/multi/1"}, "response": {"status": 200}}, {"request": {"method": "GET", "url": "/multi/2"}, "response": {"status": 200}}, {"request": {"method": "GET", "url": "/multi/3"}, "response": {"status": 200}}]}"#,
                "mappings/single.json":
                    #"{"request": {"method": "GET", "url": "/single/1"}, "response": {"status": 200}}"#,
            ]),
    ]

    @Test(arguments: cases)
    func wireMockCase(_ example: AcceptanceCase) throws {
        try example.run()
    }
}
