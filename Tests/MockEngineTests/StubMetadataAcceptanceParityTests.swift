import Testing

/// WireMock's `StubMetadataAcceptanceTest` (Apache-2.0, `src/test/java/com/github/tomakehurst/wiremock/`)
/// carried over as data: metadata stored and read back, and the admin calls behind its Java
/// client's `findStubsByMetadata` and `removeStubsByMetadata`.
@Suite struct StubMetadataAcceptanceParityTests {
    static let id = "55555555-5555-4555-8555-555555555555"
    static let withMetadata =
        #"{"id": "\#(id)", "request": {"method": "GET", "url": "/with-metadata"}, "response": {"status": 200}, "metadata": {"four": {"five": "55555"}, "six": [1, 2, 3]}}"#
    static let without = #"{"request": {"method": "GET", "url": "/without-metadata"}, "response": {"status": 200}}"#
    static let byFive = #"{"matchesJsonPath": {"expression": "$..four.five", "contains": "55555"}}"#

    static let cases: [AcceptanceCase] = [
        AcceptanceCase(
            "createAndRetrieveStubMetadata",
            [
                #"{"id": "\#(id)", "request": {"method": "GET", "url": "/with-metadata"}, "response": {"status": 200}, "metadata": {"one": 1, "two": "2", "three": true, "four": {"five": "55555"}, "six": [1, 2, 3]}}"#
            ],
            [
                Probe(
                    "GET", "/__admin/mappings/\(id)", status: 200,
                    json: [
                        "$.metadata.one": "[1]", "$.metadata.two": #"["2"]"#, "$.metadata.three": "[true]",
                        "$.metadata.four.five": #"["55555"]"#, "$.metadata.six[0]": "[1]",
                    ])
            ]),
        AcceptanceCase(
            "canFindStubsByMetadata", [withMetadata, without],
            [
                Probe(
                    "POST", "/__admin/mappings/find-by-metadata", body: byFive, status: 200,
                    json: ["$.mappings[*].id": #"["\#(id)"]"#])
            ]),
        AcceptanceCase(
            "canRemoveStubsByMetadata", [withMetadata, without],
            [
                Probe("POST", "/__admin/mappings/remove-by-metadata", body: byFive, status: 200),
                Probe(
                    "GET", "/__admin/mappings", status: 200,
                    json: ["$.mappings[*].request.url": #"["/without-metadata"]"#]),
            ]),
    ]

    @Test(arguments: cases)
    func wireMockCase(_ example: AcceptanceCase) throws {
        try example.run()
    }
}
