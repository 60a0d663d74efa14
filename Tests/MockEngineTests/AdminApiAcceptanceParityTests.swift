import Testing

/// WireMock's `AdminApiTest`, `RemoveStubMappingAcceptanceTest` and `EditStubMappingAcceptanceTest`
/// (Apache-2.0, `src/test/java/com/github/tomakehurst/wiremock/`) carried over as data: stubs posted
/// as WireMock's clients post them, then admin and stub requests with the statuses and JSON shapes
/// WireMock answers (the shapes its Java and Python clients read). Left out: Swagger documents
/// and WireMock's exact Java error texts; version, settings and files are
/// `AdminSettingsFilesParityTests`'.
@Suite struct AdminApiAcceptanceParityTests {
    static let id1 = "11111111-1111-4111-8111-111111111111"
    static let id2 = "22222222-2222-4222-8222-222222222222"
    static let id3 = "33333333-3333-4333-8333-333333333333"
    static let id4 = "44444444-4444-4444-8444-444444444444"
    static let id5 = "55555555-5555-4555-8555-555555555555"

    static func stub(_ url: String, id: String? = nil, status: Int = 200, extra: String = "") -> String {
        let identity = id.map { #""id": "\#($0)", "# } ?? ""
        return
            #"{\#(identity)"request": {"method": "GET", "url": "\#(url)"}, "response": {"status": \#(status)}\#(extra)}"#
    }

    /// A GET stub answering "URL-Body", with or without an id.
    static func withBody(_ url: String, id: String? = nil) -> String {
        let identity = id.map { #""id": "\#($0)", "# } ?? ""
        return #"{\#(identity)"request": {"method": "GET", "url": "\#(url)"}, "response": {"body": "\#(url)-Body"}}"#
    }

    static let twenty = (1...20).map { stub("/things/\($0)", status: 418) }

    static let cases: [AcceptanceCase] = [
        AcceptanceCase(
            "AdminApiTest.getAllStubMappings", [stub("/my-test-url", id: id1, status: 418)],
            [
                Probe(
                    "GET", "/__admin/mappings", status: 200,
                    json: [
                        "$.mappings[*].id": #"["\#(id1)"]"#,
                        "$.mappings[0].request": #"[{"method":"GET","url":"/my-test-url"}]"#,
                        "$.mappings[0].response.status": "[418]", "$.meta.total": "[1]",
                    ])
            ]),
        AcceptanceCase(
            "AdminApiTest.getAllStubMappingsWithLimitedResults", twenty,
            [
                Probe("GET", "/__admin/mappings", status: 200, json: ["$.meta.total": "[20]"]),
                Probe("GET", "/__admin/mappings?limit=7", status: 200, json: ["$.mappings.length()": "[7]"]),
            ]),
        AcceptanceCase(
            "AdminApiTest.getAllStubMappingsWithLimitedAndOffsetResults", twenty,
            [
                Probe(
                    "GET", "/__admin/mappings?limit=4&offset=3", status: 200,
                    json: [
                        "$.mappings.length()": "[4]", "$.mappings[0].request.url": #"["/things/17"]"#,
                        "$.mappings[3].request.url": #"["/things/14"]"#,
                    ])
            ]),
        AcceptanceCase(
            "AdminApiTest.getStubMappingById", [stub("/my-test-url", id: id1, status: 418)],
            [
                Probe(
                    "GET", "/__admin/mappings/\(id1)", status: 200,
                    json: ["$.id": #"["\#(id1)"]"#, "$.request.url": #"["/my-test-url"]"#])
            ]),
        AcceptanceCase(
            "AdminApiTest.getLoggedRequests", [],
            (1...5).map { Probe("GET", "/received-request/\($0)", status: 404) } + [
                Probe(
                    "GET", "/__admin/requests", status: 200,
                    json: [
                        "$.meta.total": "[5]", "$.requests[0].request.url": #"["/received-request/5"]"#,
                        "$.requestJournalDisabled": "[false]",
                    ])
            ]),
        AcceptanceCase(
            "AdminApiTest.getLoggedRequestsWithLimit", [],
            (1...7).map { Probe("GET", "/received-request/\($0)", status: 404) } + [
                Probe(
                    "GET", "/__admin/requests?limit=2", status: 200,
                    json: [
                        "$.meta.total": "[7]", "$.requests.length()": "[2]",
                        "$.requests[*].request.url": #"["/received-request/7","/received-request/6"]"#,
                    ])
            ]),
        AcceptanceCase(
            "AdminApiTest.getLoggedRequestsWithInvalidSinceDateReturnsBadRequest", [],
            [Probe("GET", "/__admin/requests?since=foo", status: 400)]),
        AcceptanceCase(
            "AdminApiTest.getLoggedRequestsWithLimitLargerThanResults", [],
            (1...3).map { Probe("GET", "/received-request/\($0)", status: 404) } + [
                Probe(
                    "GET", "/__admin/requests?limit=3000", status: 200,
                    json: ["$.meta.total": "[3]", "$.requests.length()": "[3]"])
            ]),
        AcceptanceCase(
            "AdminApiTest.deleteStubMappingById", [stub("/delete/this", id: id1)],
            [
                Probe("GET", "/delete/this", status: 200), Probe("DELETE", "/__admin/mappings/\(id1)", status: 200),
                Probe("GET", "/delete/this", status: 404),
            ]),
        AcceptanceCase(
            "AdminApiTest.returns404WhenAttemptingToDeleteNonExistentStubMapping", [],
            [Probe("DELETE", "/__admin/mappings/\(id2)", status: 404)]),
        AcceptanceCase(
            "AdminApiTest.editStubMappingById", [stub("/put/this", id: id1)],
            [
                Probe("GET", "/put/this", status: 200),
                Probe(
                    "PUT", "/__admin/mappings/\(id1)", body: stub("/put/this", status: 418), status: 200,
                    json: ["$.id": #"["\#(id1)"]"#]),
                Probe("GET", "/put/this", status: 418),
            ]),
        AcceptanceCase(
            "AdminApiTest.returns404WhenAttemptingToEditNonExistentStubMapping", [],
            [Probe("PUT", "/__admin/mappings/\(id2)", body: stub("/put/this", status: 418), status: 404)]),
        AcceptanceCase(
            "AdminApiTest.createStubMappingReturnsTheCreatedMapping", [],
            [
                Probe(
                    "POST", "/__admin/mappings", body: stub("/create", id: id3, extra: #", "name": "Named""#),
                    status: 201,
                    json: ["$.id": #"["\#(id3)"]"#, "$.name": #"["Named"]"#, "$.request.url": #"["/create"]"#])
            ]),
        AcceptanceCase(
            "AdminApiTest.resetStubMappingsViaDELETE", [stub("/reset-this"), stub("/reset-this/too")],
            [
                Probe("GET", "/reset-this", status: 200), Probe("DELETE", "/__admin/mappings", status: 200),
                Probe("GET", "/reset-this", status: 404), Probe("GET", "/reset-this/too", status: 404),
            ]),
        AcceptanceCase(
            "AdminApiTest.resetRequestJournalViaDELETE", [],
            [
                Probe("GET", "/one", status: 404), Probe("GET", "/two", status: 404),
                Probe("DELETE", "/__admin/requests", status: 200),
                Probe("GET", "/__admin/requests", status: 200, json: ["$.requests.length()": "[0]"]),
            ]),
        AcceptanceCase(
            "AdminApiTest.returnsNotFoundWhenAttemptingToResetNonExistentScenario", [],
            [
                Probe(
                    "PUT", "/__admin/scenarios/i-dont-exist/state", status: 404,
                    json: ["$.errors[0].title": #"["Scenario i-dont-exist does not exist"]"#])
            ]),
        AcceptanceCase(
            "AdminApiTest.returnsNotFoundWhenAttemptingToSetNonExistentScenarioState", [],
            [
                Probe(
                    "PUT", "/__admin/scenarios/i-dont-exist/state", body: #"{"state":"newstate"}"#, status: 404,
                    json: ["$.errors[0].title": #"["Scenario i-dont-exist does not exist"]"#])
            ]),
        AcceptanceCase(
            "AdminApiTest.returnsBadEntityWhenAttemptingToSetNonExistentScenarioState",
            ScenarioAcceptanceParityTests.pair("my-scenario", back: true),
            [
                Probe(
                    "PUT", "/__admin/scenarios/my-scenario/state", body: #"{"state":"non-existent-state"}"#,
                    status: 422,
                    json: ["$.errors[0].title": #"["Scenario my-scenario does not support state non-existent-state"]"#])
            ]),
        AcceptanceCase(
            "AdminApiTest.defaultsUnspecifiedStubMappingAttributes", [],
            [
                Probe(
                    "POST", "/__admin/mappings", body: "{}", status: 201,
                    json: ["$.request.method": #"["ANY"]"#, "$.response.status": "[200]"]),
                Probe("GET", "/", status: 200),
            ]),
        AcceptanceCase(
            "AdminApiTest.returnsBadEntityStatusWhenInvalidRegexUsedInUrl", [],
            [Probe("POST", "/__admin/mappings", body: #"{"request": {"urlPattern": "/@$&%*[[^^£$&%"}}"#, status: 422)]),
        AcceptanceCase(
            "AdminApiTest.returnsBadEntityStatusWhenInvalidRegexUsedInHeader", [],
            [
                Probe(
                    "POST", "/__admin/mappings",
                    body: #"{"request": {"headers": {"Accept": {"matches": "%[[json[["}}}}"#,
                    status: 422, json: ["$.errors[0].source.pointer": #"["/request/headers/Accept/matches"]"#])
            ]),
        AcceptanceCase(
            "AdminApiTest.returnsBadEntityStatusWhenInvalidRegexUsedInBodyPattern", [],
            [
                Probe(
                    "POST", "/__admin/mappings",
                    body: #"{"request": {"bodyPatterns": [{"equalTo": "fine"}, {"matches": "somebad]]][[stuff"}]}}"#,
                    status: 422, json: ["$.errors[0].source.pointer": #"["/request/bodyPatterns/1/matches"]"#])
            ]),
        AcceptanceCase(
            "AdminApiTest.returnsBadEntityStatusWhenInvalidMatchOperator", [],
            [
                Probe(
                    "POST", "/__admin/mappings",
                    body: #"{"request": {"bodyPatterns": [{"matching": "somebad]]][[stuff"}]}}"#,
                    status: 422, bodyContains: "matching")
            ]),
        AcceptanceCase(
            "AdminApiTest.returnsBadEntityStatusOnEqualToJsonOperand", [],
            [
                Probe(
                    "POST", "/__admin/mappings", body: #"{"request": {"bodyPatterns": [{"equalToJson": "(wrong)"}]}}"#,
                    status: 422)
            ]),
        AcceptanceCase(
            "AdminApiTest.returnsBadEntityStatusWhenInvalidEqualToXmlSpecified", [],
            [
                Probe(
                    "POST", "/__admin/mappings", body: #"{"request": {"bodyPatterns": [{"equalToXml": "(wrong)"}]}}"#,
                    status: 422)
            ]),
        AcceptanceCase(
            "AdminApiTest.returnsBadEntityStatusWhenContainsOperandIsNull", [],
            [
                Probe(
                    "POST", "/__admin/mappings", body: #"{"request": {"bodyPatterns": [{"contains": null}]}}"#,
                    status: 422)
            ]),
        AcceptanceCase(
            "AdminApiTest.returnsBadEntityStatusWhenEqualToOperandIsWrongType", [],
            [
                Probe(
                    "POST", "/__admin/mappings", body: #"{"request": {"bodyPatterns": [{"equalTo": 12}]}}"#, status: 422
                )
            ]),
        AcceptanceCase(
            "AdminApiTest.returnsBadEntityStatusWhenContainsOperandIsWrongType", [],
            [
                Probe(
                    "POST", "/__admin/mappings", body: #"{"request": {"bodyPatterns": [{"contains": 12}]}}"#,
                    status: 422)
            ]),
        AcceptanceCase(
            "AdminApiTest.returnsBadEntityStatusWhenMatchesOperandIsWrongType", [],
            [
                Probe(
                    "POST", "/__admin/mappings", body: #"{"request": {"bodyPatterns": [{"matches": 12}]}}"#, status: 422
                )
            ]),
        AcceptanceCase(
            "AdminApiTest.fetchStubWithMetadata",
            [
                stub(
                    "/with-metadata", id: id1,
                    extra: #", "metadata": {"one": 1, "two": "2", "three": true, "four": {"five": [6, 7, "eight"]}}"#)
            ],
            [
                Probe(
                    "GET", "/__admin/mappings/\(id1)", status: 200,
                    json: ["$.metadata": #"[{"four":{"five":[6,7,"eight"]},"one":1,"three":true,"two":"2"}]"#])
            ]),
        AcceptanceCase(
            "AdminApiTest.stubMetadataIsAbsentWhenNoneSpecified", [stub("/without-metadata", id: id1)],
            [Probe("GET", "/__admin/mappings/\(id1)", status: 200, json: ["$.metadata": "[]"])]),
        AcceptanceCase(
            "AdminApiTest.importStubs",
            [
                #"{"id": "8c5db8b0-2db4-4ad7-a99f-38c9b00da3f7", "request": {"method": "GET", "url": "/two"}, "response": {"status": 200, "body": "Original"}}"#,
                stub("/three"),
            ],
            [
                Probe(
                    "POST", "/__admin/mappings/import",
                    body:
                        #"{"mappings": [{"request": {"method": "GET", "url": "/one"}, "response": {"status": 200}}, {"id": "8c5db8b0-2db4-4ad7-a99f-38c9b00da3f7", "request": {"url": "/two"}, "response": {"body": "Updated"}}], "importOptions": {"duplicatePolicy": "IGNORE", "deleteAllNotInImport": true}}"#,
                    status: 200),
                Probe("GET", "/two", status: 200, bodyContains: "Original"), Probe("GET", "/three", status: 404),
                Probe("GET", "/__admin/mappings", status: 200, json: ["$.meta.total": "[2]"]),
            ]),
        AcceptanceCase(
            "AdminApiTest.treatsEmptyOrNullIdFieldsAsNotPresent", [],
            [
                Probe(
                    "POST", "/__admin/mappings/import",
                    body:
                        #"{"mappings": [{"id": "", "name": "Empty ID", "request": {"url": "/empty-id"}, "response": {"status": 204}}, {"id": null, "name": "Null ID", "request": {"url": "/null-id"}, "response": {"status": 204}}]}"#,
                    status: 200),
                Probe("GET", "/empty-id", status: 204), Probe("GET", "/null-id", status: 204),
            ]),
        AcceptanceCase(
            "AdminApiTest.treatsEmptyOrNullUuidFieldsAsNotPresent", [],
            [
                Probe(
                    "POST", "/__admin/mappings/import",
                    body:
                        #"{"mappings": [{"id": "27d7818b-4df6-4630-a6ab-c50e87e384e1", "uuid": "", "name": "Empty UUID", "request": {"url": "/empty-id"}, "response": {"status": 204}}, {"id": "95b5c478-eb39-4bad-ba55-a336dbfeaa53", "uuid": null, "name": "Null ID", "request": {"url": "/null-id"}, "response": {"status": 204}}]}"#,
                    status: 200),
                Probe("GET", "/__admin/mappings", status: 200, json: ["$.meta.total": "[2]"]),
            ]),
        AcceptanceCase(
            "AdminApiTest.resetScenariosViaPOST",
            [
                ScenarioAcceptanceParityTests.step(
                    "changing-states", "/stateful", "Initial", from: "Started", to: "final"),
                ScenarioAcceptanceParityTests.step("changing-states", "/stateful", "Final", from: "final"),
            ],
            [
                Probe("GET", "/stateful", status: 200, bodyContains: "Initial"),
                Probe("GET", "/stateful", status: 200, bodyContains: "Final"),
                Probe("POST", "/__admin/scenarios/reset", status: 200, json: ["$": "[{}]"]),
                Probe("GET", "/stateful", status: 200, bodyContains: "Initial"),
            ]),
        AcceptanceCase(
            "AdminApiTest.getScenarios",
            [
                ScenarioAcceptanceParityTests.step("my-scenario", "/one", "started", from: "Started", to: "2"),
                ScenarioAcceptanceParityTests.step("my-scenario", "/one", "2", from: "2", to: "3"),
                ScenarioAcceptanceParityTests.step("my-scenario", "/one", "3", from: "3"),
            ],
            [
                Probe("GET", "/one", status: 200),
                Probe(
                    "GET", "/__admin/scenarios", status: 200,
                    json: [
                        "$.scenarios[0].id": #"["my-scenario"]"#, "$.scenarios[0].name": #"["my-scenario"]"#,
                        "$.scenarios[0].state": #"["2"]"#, "$.scenarios[0].possibleStates": #"[["Started","2","3"]]"#,
                        "$.scenarios[0].mappings[0].request.url": #"["/one"]"#,
                    ]),
            ]),
        AcceptanceCase(
            "AdminApiTest.getsAllUnmatchedServeEvents", [stub("/match")],
            [
                Probe("GET", "/match", status: 200), Probe("GET", "/no-match", status: 404),
                Probe("GET", "/just-wrong", status: 404),
                Probe("GET", "/match", status: 200),
                Probe(
                    "GET", "/__admin/requests?unmatched=true", status: 200,
                    json: ["$.requests[*].request.url": #"["/just-wrong","/no-match"]"#]),
            ]),
        AcceptanceCase(
            "AdminApiTest.getsAllServeEventsMatchingASpecificStub", [stub("/one", id: id1), stub("/two", id: id2)],
            [
                Probe("GET", "/two", status: 200), Probe("GET", "/one", status: 200), Probe("GET", "/one", status: 200),
                Probe("GET", "/two", status: 200),
                Probe(
                    "GET", "/__admin/requests?matchingStub=\(id2)", status: 200, json: ["$.requests.length()": "[2]"]),
            ]),
        AcceptanceCase(
            "AdminApiTest.returnsSensibleErrorIfStubIdNotValid", [],
            [
                Probe(
                    "GET", "/__admin/requests?matchingStub=not-a-valid-uuid", status: 200, json: ["$.requests": "[[]]"])
            ],
            deliberate:
                "mapping ids may be any text in petmock, so any matchingStub is an id (none matched: no requests)"),
        AcceptanceCase(
            "AdminApiTest.returnsSensibleErrorIfStubIdIsNull", [],
            [Probe("GET", "/__admin/requests?matchingStub=", status: 400)]),
        AcceptanceCase(
            "AdminApiTest.findsNearMissesByRequest", [stub("/anything")],
            [
                Probe(
                    "POST", "/__admin/near-misses/request", body: #"{"url": "/thing", "method": "GET"}"#, status: 200,
                    json: ["$.nearMisses[0].stubMapping.request.url": #"["/anything"]"#])
            ]),
        AcceptanceCase(
            "AdminApiTest.returnsDefaultStubMappingInServeEventWhenRequestNotMatched", [],
            [
                Probe("GET", "/wrong-request/1", status: 404),
                Probe(
                    "GET", "/__admin/requests", status: 200,
                    json: ["$.requests[0].stubMapping.response.status": "[404]"]),
            ]),
        AcceptanceCase(
            "AdminApiTest.returnsNotFoundWhenAttemptingToGetNonExistentStub", [],
            [Probe("GET", "/__admin/mappings/\(id2)", status: 404)]),
        AcceptanceCase(
            "AdminApiTest.returnsNotFoundWhenAttemptingToGetServeEventByNonExistentId", [],
            [Probe("GET", "/__admin/requests/\(id2)", status: 404)]),
        AcceptanceCase(
            "AdminApiTest.returnsBadRequestWhenAttemptingToGetByNonUuid", [],
            [Probe("GET", "/__admin/mappings/not-a-uuid", status: 400)]),
        AcceptanceCase(
            "AdminApiTest.returnsBadRequestWhenAttemptingToRemoveByNonUuid", [],
            [Probe("DELETE", "/__admin/mappings/not-a-uuid", status: 400)]),
        AcceptanceCase(
            "AdminApiTest.returnsBadRequestWhenAttemptingToGetServeEventByNonUuid", [],
            [
                Probe(
                    "GET", "/__admin/requests/not-a-uuid", status: 400,
                    json: ["$.errors[0].code": "[10]", "$.errors[0].title": #"["not-a-uuid is not a valid UUID"]"#])
            ]),
        AcceptanceCase(
            "AdminApiTest.returnsBadRequestWhenAttemptingToRemoveServeEventByNonUuid", [],
            [Probe("DELETE", "/__admin/requests/not-a-uuid", status: 400)]),
        AcceptanceCase(
            "AdminApiTest.findUnmatchedStubMappingsWithNoMappings", [],
            [
                Probe(
                    "GET", "/__admin/mappings/unmatched", status: 200,
                    json: ["$.meta.total": "[0]", "$.mappings": "[[]]"])
            ]),
        AcceptanceCase(
            "AdminApiTest.findUnmatchedStubMappingsWithMatchingMapping", [stub("/one")],
            [
                Probe("GET", "/one", status: 200),
                Probe("GET", "/__admin/mappings/unmatched", status: 200, json: ["$.meta.total": "[0]"]),
            ]),
        AcceptanceCase(
            "AdminApiTest.findUnmatchedStubMappingsWithMultipleMappings", [stub("/one"), stub("/two", id: id2)],
            [
                Probe("GET", "/one", status: 200),
                Probe(
                    "GET", "/__admin/mappings/unmatched", status: 200,
                    json: ["$.meta.total": "[1]", "$.mappings[*].id": #"["\#(id2)"]"#]),
            ]),
        AcceptanceCase(
            "AdminApiTest.removeUnmatchedStubMappingsWithNoMappings", [],
            [Probe("DELETE", "/__admin/mappings/unmatched", status: 200)]),
        AcceptanceCase(
            "AdminApiTest.removeUnmatchedStubMappingsWithMatchingMapping", [stub("/one")],
            [
                Probe("GET", "/one", status: 200), Probe("DELETE", "/__admin/mappings/unmatched", status: 200),
                Probe("GET", "/one", status: 200),
            ]),
        AcceptanceCase(
            "AdminApiTest.removeUnmatchedStubMappingsWithMultipleMappings", [stub("/one"), stub("/two")],
            [
                Probe("GET", "/one", status: 200), Probe("DELETE", "/__admin/mappings/unmatched", status: 200),
                Probe("GET", "/one", status: 200), Probe("GET", "/two", status: 404),
            ]),
        AcceptanceCase(
            "AdminApiTest.removeStubMappingsByIdAndRequestMatch",
            [stub("/one", id: id1), stub("/two"), stub("/three")],
            [
                Probe(
                    "POST", "/__admin/mappings/remove",
                    body: #"{"mappings": [{"id": "\#(id1)"}, {"request": {"method": "GET", "url": "/three"}}]}"#,
                    status: 200),
                Probe("GET", "/one", status: 404), Probe("GET", "/two", status: 200),
                Probe("GET", "/three", status: 404),
            ]),
        // RemoveStubMappingAcceptanceTest: the Java client's removeStub(builder) posts the whole
        // mapping to /__admin/mappings/remove (by id, else request); removeStub(id) is a DELETE.
        AcceptanceCase(
            "RemoveStubMappingAcceptanceTest.removeStubThatExistsUsingUUID",
            [withBody("/stub-1", id: id1), withBody("/stub-2", id: id2)],
            [
                Probe("GET", "/stub-2", status: 200, bodyContains: "/stub-2-Body"),
                Probe("POST", "/__admin/mappings/remove", body: withBody("/stub-2", id: id2), status: 200),
                Probe("GET", "/__admin/mappings", status: 200, json: ["$.mappings[*].request.url": #"["/stub-1"]"#]),
                Probe("POST", "/__admin/mappings/remove", body: withBody("/stub-1", id: id1), status: 200),
                Probe("GET", "/__admin/mappings", status: 200, json: ["$.meta.total": "[0]"]),
            ]),
        AcceptanceCase(
            "RemoveStubMappingAcceptanceTest.removeStubThatExistsUsingRequestMatchUUIDNotMatch",
            [withBody("/stub-11", id: id1), withBody("/stub-22", id: id2)],
            [
                Probe("POST", "/__admin/mappings/remove", body: withBody("/stub-22", id: id3), status: 200),
                Probe("GET", "/__admin/mappings", status: 200, json: ["$.mappings[*].request.url": #"["/stub-11"]"#]),
                Probe("POST", "/__admin/mappings/remove", body: withBody("/stub-11", id: id3), status: 200),
                Probe("GET", "/__admin/mappings", status: 200, json: ["$.meta.total": "[0]"]),
            ]),
        AcceptanceCase(
            "RemoveStubMappingAcceptanceTest.removeStubThatExistsWithRequestMatchNoUUIDPresent",
            [withBody("/stub-111", id: id1), withBody("/stub-222", id: id2)],
            [
                Probe("POST", "/__admin/mappings/remove", body: withBody("/stub-222"), status: 200),
                Probe("GET", "/__admin/mappings", status: 200, json: ["$.mappings[*].request.url": #"["/stub-111"]"#]),
                Probe("POST", "/__admin/mappings/remove", body: withBody("/stub-111"), status: 200),
                Probe("GET", "/__admin/mappings", status: 200, json: ["$.meta.total": "[0]"]),
            ]),
        AcceptanceCase(
            "RemoveStubMappingAcceptanceTest.removeStubThatDoesNotExists",
            [withBody("/stb-1", id: id1), withBody("/stb-2", id: id2)],
            [
                Probe("POST", "/__admin/mappings/remove", body: withBody("/stb-3", id: id3), status: 200),
                Probe("GET", "/__admin/mappings", status: 200, json: ["$.meta.total": "[2]"]),
            ]),
        AcceptanceCase(
            "RemoveStubMappingAcceptanceTest.removeStubWithUUIDThatExists", [withBody("/stub-1", id: id1)],
            [
                Probe("DELETE", "/__admin/mappings/\(id1)", status: 200),
                Probe("GET", "/__admin/mappings", status: 200, json: ["$.meta.total": "[0]"]),
            ]),
        AcceptanceCase(
            "RemoveStubMappingAcceptanceTest.removeStubWithUUIDThatDoesNotExists", [withBody("/stb-1", id: id1)],
            [
                Probe("GET", "/stb-1", status: 200, bodyContains: "/stb-1-Body"),
                Probe("DELETE", "/__admin/mappings/\(id1)", status: 200),
                Probe("GET", "/stb-1", status: 404),
            ]),
        // RemoveStubMappingsAcceptanceTest (several at once; its checks of the saved files left out)
        AcceptanceCase(
            "RemoveStubMappingsAcceptanceTest.removeStubsThatExistUsingUUID",
            [stub("/stub-1", id: id1), stub("/stub-2", id: id2, status: 201), stub("/stub-3", id: id3, status: 202)],
            [
                Probe(
                    "POST", "/__admin/mappings/remove",
                    body: #"{"mappings": [\#(stub("/whatever", id: id1)), \#(stub("/whatever", id: id3))]}"#,
                    status: 200),
                Probe("GET", "/stub-1", status: 404), Probe("GET", "/stub-2", status: 201),
                Probe("GET", "/stub-3", status: 404),
            ]),
        AcceptanceCase(
            "RemoveStubMappingsAcceptanceTest.removeStubsThatExistUsingRequestMatch",
            [stub("/stub-1", id: id1), stub("/stub-2", id: id2, status: 201), stub("/stub-3", id: id3, status: 202)],
            [
                Probe(
                    "POST", "/__admin/mappings/remove",
                    body: #"{"mappings": [\#(stub("/stub-1", id: id4)), \#(stub("/stub-3", id: id5))]}"#, status: 200),
                Probe("GET", "/stub-1", status: 404), Probe("GET", "/stub-2", status: 201),
                Probe("GET", "/stub-3", status: 404),
            ]),
        AcceptanceCase(
            "RemoveStubMappingsAcceptanceTest.removesNothingWhenNoneOfTheStubsExist",
            [stub("/stub-1", id: id1), stub("/stub-2", id: id2, status: 201)],
            [
                Probe(
                    "POST", "/__admin/mappings/remove",
                    body: #"{"mappings": [\#(stub("/whatever", id: id4)), \#(stub("/whatever", id: id5))]}"#,
                    status: 200),
                Probe("GET", "/stub-1", status: 200), Probe("GET", "/stub-2", status: 201),
            ]),
        // EditMappingAcceptanceTest
        AcceptanceCase(
            "EditMappingAcceptanceTest.editMappingViaTheJsonApi",
            [
                #"{"id": "bff18359-a74e-4c3e-95f0-dab304cd3a5a", "request": {"method": "GET", "url": "/a/registered/resource"}, "response": {"status": 401, "headers": {"Content-Type": "text/plain"}, "body": "Not allowed!"}}"#
            ],
            [
                Probe("GET", "/a/registered/resource", status: 401, bodyContains: "Not allowed!"),
                Probe(
                    "PUT", "/__admin/mappings/bff18359-a74e-4c3e-95f0-dab304cd3a5a",
                    body:
                        #"{"id": "bff18359-a74e-4c3e-95f0-dab304cd3a5a", "request": {"method": "GET", "url": "/a/registered/resource"}, "response": {"status": 200, "headers": {"Content-Type": "text/html"}, "body": "OK"}}"#,
                    status: 200),
                Probe("GET", "/a/registered/resource", status: 200, bodyContains: "OK"),
            ]),
        AcceptanceCase(
            "EditMappingAcceptanceTest.editMappingViaTheDsl", [stub("/edit/this", id: id1)],
            [
                Probe("GET", "/edit/this", status: 200),
                Probe("PUT", "/__admin/mappings/\(id1)", body: stub("/edit/this", id: id1, status: 418), status: 200),
                Probe("GET", "/edit/this", status: 418),
            ]),
        // EditStubMappingAcceptanceTest
        AcceptanceCase(
            "EditStubMappingAcceptanceTest.editsAnExistingStubById", [stub("/edit-me", id: id1)],
            [
                Probe(
                    "PUT", "/__admin/mappings/\(id1)",
                    body:
                        #"{"request": {"method": "GET", "url": "/edit-me"}, "response": {"status": 200, "body": "Modified"}}"#,
                    status: 200),
                Probe("GET", "/edit-me", status: 200, bodyContains: "Modified"),
                Probe("GET", "/__admin/mappings", status: 200, json: ["$.meta.total": "[1]"]),
            ]),
    ]

    @Test(arguments: cases)
    func wireMockCase(_ example: AcceptanceCase) throws {
        try example.run()
    }
}
