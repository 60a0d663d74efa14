import Testing

/// WireMock's `ScenarioAcceptanceTest` (Apache-2.0, `src/test/java/com/github/tomakehurst/wiremock/`)
/// carried over as data: scenario stubs, requests, and the admin calls between them.
/// Left out: the Java builder's own checks (`inScenario(null)`, builder order).
@Suite struct ScenarioAcceptanceParityTests {
    /// A GET `url` stub in `scenario`, answering `body`.
    static func step(
        _ scenario: String, _ url: String, _ body: String, from: String? = nil, to: String? = nil,
        method: String = "GET",
        id: String? = nil
    ) -> String {
        var fields = [#""scenarioName": "\#(scenario)""#]
        if let id { fields.append(#""id": "\#(id)""#) }
        if let from { fields.append(#""requiredScenarioState": "\#(from)""#) }
        if let to { fields.append(#""newScenarioState": "\#(to)""#) }
        fields.append(#""request": {"method": "\#(method)", "url": "\#(url)"}"#)
        fields.append(#""response": {"status": 200, "body": "\#(body)"}"#)
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// Two `/one` stubs: Started -> "2" (answering "started"), "2" answering "2" (and back to
    /// Started when `back`).
    static func pair(_ scenario: String, back: Bool = false) -> [String] {
        [
            step(scenario, "/one", "started", from: "Started", to: "2"),
            step(scenario, "/one", "2", from: "2", to: back ? "Started" : nil),
        ]
    }

    static let idA = "aaaaaaaa-0000-4000-8000-00000000000a"
    static let idB = "bbbbbbbb-0000-4000-8000-00000000000b"
    static let idC = "cccccccc-0000-4000-8000-00000000000c"

    static let cases: [AcceptanceCase] = [
        AcceptanceCase(
            "createMappingsInScenarioAndChangeResponseWithStateChange",
            [
                step("SomeResourceUpdate", "/some/resource", "Initial", from: "Started"),
                step("SomeResourceUpdate", "/some/resource", "", from: "Started", to: "BodyModified", method: "PUT"),
                step("SomeResourceUpdate", "/some/resource", "Modified", from: "BodyModified"),
            ],
            [
                Probe("GET", "/some/resource", status: 200, bodyContains: "Initial"),
                Probe("PUT", "/some/resource", status: 200),
                Probe("GET", "/some/resource", status: 200, bodyContains: "Modified"),
            ]),
        AcceptanceCase(
            "mappingInScenarioIndependentOfCurrentState",
            [
                step("StateIndependent", "/state/independent/resource", "Some content"),
                step("StateIndependent", "/state/modifying/resource", "", to: "BodyModified", method: "PUT"),
            ],
            [
                Probe("GET", "/state/independent/resource", status: 200, bodyContains: "Some content"),
                Probe("PUT", "/state/modifying/resource", status: 200),
                Probe("GET", "/state/independent/resource", status: 200, bodyContains: "Some content"),
            ]),
        AcceptanceCase(
            "resetAllScenariosState",
            [
                step("ResetScenario", "/stateful/resource", "Expected content", from: "Started"),
                step("ResetScenario", "/stateful/resource", "", to: "Changed", method: "PUT"),
            ],
            [
                Probe("PUT", "/stateful/resource", status: 200), Probe("GET", "/stateful/resource", status: 404),
                Probe("POST", "/__admin/scenarios/reset", status: 200),
                Probe("GET", "/stateful/resource", status: 200, bodyContains: "Expected content"),
            ]),
        AcceptanceCase(
            "canGetAllScenarios",
            [
                step("scenario_one", "/scenarios/1", "1:1", from: "Started", to: "state_2"),
                step("scenario_two", "/scenarios/2", "2:1", from: "Started"),
            ],
            [
                Probe("GET", "/scenarios/1", status: 200),
                Probe(
                    "GET", "/__admin/scenarios", status: 200,
                    json: [
                        "$.scenarios[?(@.name == 'scenario_one')].state": #"["state_2"]"#,
                        "$.scenarios[?(@.name == 'scenario_one')].possibleStates": #"[["Started","state_2"]]"#,
                        "$.scenarios[?(@.name == 'scenario_two')].state": #"["Started"]"#,
                        "$.scenarios[?(@.name == 'scenario_two')].id": #"["scenario_two"]"#,
                    ]),
            ]),
        AcceptanceCase(
            "scenarioIsRemovedWhenLastMappingReferringToItIsRemoved",
            [
                step("remove_this_scenario", "/scenarios/22", "1", from: "Started", to: "state_2", id: idA),
                step("remove_this_scenario", "/scenarios/22", "2", from: "state_2", to: "state_2", id: idB),
                step("remove_this_scenario", "/scenarios/22", "3", from: "state_2", to: "state_3", id: idC),
            ],
            [
                Probe("GET", "/__admin/scenarios", status: 200, json: ["$.scenarios.length()": "[1]"]),
                Probe("DELETE", "/__admin/mappings/\(idA)", status: 200),
                Probe("DELETE", "/__admin/mappings/\(idB)", status: 200),
                Probe("DELETE", "/__admin/mappings/\(idC)", status: 200),
                Probe("GET", "/__admin/scenarios", status: 200, json: ["$.scenarios.length()": "[0]"]),
            ]),
        AcceptanceCase(
            "scenarioIsRemovedWhenLastMappingReferringToHasItsScenarioNameChanged",
            [
                step("old_scenario", "/scenarios/33", "1", from: "Started", to: "state_2", id: idA),
                step("old_scenario", "/scenarios/33", "2", from: "state_2", to: "state_2", id: idB),
            ],
            [
                Probe("GET", "/__admin/scenarios", status: 200, json: ["$.scenarios[*].id": #"["old_scenario"]"#]),
                Probe(
                    "PUT", "/__admin/mappings/\(idA)",
                    body: step("new_scenario", "/scenarios/33", "1", from: "Started", to: "state_2", id: idA),
                    status: 200),
                Probe(
                    "PUT", "/__admin/mappings/\(idB)",
                    body: step("new_scenario", "/scenarios/33", "2", from: "state_2", to: "state_2", id: idB),
                    status: 200),
                Probe("GET", "/__admin/scenarios", status: 200, json: ["$.scenarios[*].id": #"["new_scenario"]"#]),
            ]),
        AcceptanceCase(
            "returnsEmptyMapOnGetAllScenariosWhenThereAreNone", [],
            [Probe("GET", "/__admin/scenarios", status: 200, json: ["$.scenarios": "[[]]"])]),
        AcceptanceCase(
            "resetsASingleScenarioByName", pair("reset-me"),
            [
                Probe("GET", "/one", status: 200, bodyContains: "started"),
                Probe("GET", "/one", status: 200, bodyContains: "2"),
                Probe("PUT", "/__admin/scenarios/reset-me/state", status: 200),
                Probe("GET", "/one", status: 200, bodyContains: "started"),
            ]),
        AcceptanceCase(
            "setsASingleScenarioStateByName",
            [
                step("set-me", "/one", "started", from: "Started", to: "2"),
                step("set-me", "/one", "2", from: "2", to: "3"),
                step("set-me", "/one", "3", from: "3"),
            ],
            [
                Probe("GET", "/one", status: 200, bodyContains: "started"),
                Probe("GET", "/one", status: 200, bodyContains: "2"),
                Probe("GET", "/one", status: 200, bodyContains: "3"),
                Probe("PUT", "/__admin/scenarios/set-me/state", body: #"{"state": "2"}"#, status: 200),
                Probe("GET", "/one", status: 200, bodyContains: "2"),
            ]),
        AcceptanceCase(
            "throwsClientErrorWhenAttemptingToResetNonExistentScenario", [],
            [Probe("PUT", "/__admin/scenarios/non-exist/state", status: 404)]),
        AcceptanceCase(
            "throwsClientErrorWhenAttemptingToSetToNonExistentState", pair("set-me"),
            [Probe("PUT", "/__admin/scenarios/set-me/state", body: #"{"state": "non-exist"}"#, status: 422)]),
    ]

    @Test(arguments: cases)
    func wireMockCase(_ example: AcceptanceCase) throws {
        try example.run()
    }
}
