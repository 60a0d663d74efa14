import HTTPServerKit
import JSONKit
import MockEngine
import StubFormat
import StubServerKit
import TestSupport
import Testing

/// `/__admin/settings` and `/__admin/version` as values: the global delays as the replies
/// that carry them (the loop's timers hold a `.delayed` reply, `HTTPServerFaultTests`'), each
/// refusal with its status and JSON pointer, and that a refused body changes nothing.
@Suite struct AdminSettingsTests {
    static func stub(_ path: String, _ response: ResponseDefinition) -> StubMapping {
        StubMapping(request: RequestPattern(method: .get, url: .urlPath(path)), response: response)
    }

    static let mappings = [
        stub("/plain", ResponseDefinition(body: .text("ok"))),
        stub("/own", ResponseDefinition(body: .text("late"), fixedDelayMilliseconds: 200)),
        stub("/ownRandom", ResponseDefinition(body: .text("late"), delayDistribution: .uniform(lower: 7, upper: 7))),
        stub("/empty", ResponseDefinition(fault: .emptyResponse)),
    ]

    static func describe(_ server: StubServer, _ target: String) -> String {
        StubReplyTests.describe(StubReplyTests.reply(server, target))
    }

    static func put(
        _ server: StubServer, _ body: String, method: String = "PUT", path: String = "/__admin/settings"
    )
        throws -> RawResponse
    {
        try server.answer(method, path, body: body)
    }

    /// WireMock's `GlobalSettingsAcceptanceTest.settingGlobalFixedResponseDelay` and
    /// `canCombineFixedAndRandomDelays`: the global delays, where the stub sets none of its own
    /// kind (WireMock's `configureDelay`: the stub's own wins).
    @Test(arguments: [
        (#"{"fixedDelay": 500}"#, "/plain", "after 500 ms: prepared 200"),
        (#"{"fixedDelay": 500}"#, "/own", "after 200 ms: prepared 200"),
        (#"{"fixedDelay": 500}"#, "/ownRandom", "after 507 ms: prepared 200"),
        (#"{"fixedDelay": 500}"#, "/empty", "after 500 ms: fault empty"),
        (#"{"fixedDelay": 500}"#, "/nothing", "response 404"),
        (
            #"{"delayDistribution": {"type": "uniform", "lower": 90, "upper": 90}}"#, "/plain",
            "after 90 ms: prepared 200"
        ),
        (#"{"delayDistribution": {"type": "fixed", "milliseconds": 90}}"#, "/own", "after 290 ms: prepared 200"),
        (
            #"{"fixedDelay": 30, "delayDistribution": {"type": "uniform", "lower": 90, "upper": 90}}"#, "/plain",
            "after 120 ms: prepared 200"
        ),
        (#"{"fixedDelay": 0}"#, "/plain", "prepared 200"),
        (#"{"extended": {"a": 1}}"#, "/plain", "prepared 200"),
    ])
    func globalDelaysApplyWhereTheStubSetsNone(_ settings: String, _ target: String, _ expected: String) throws {
        let server = try makeServer(mappings: Self.mappings)
        #expect(Self.describe(server, "/plain") == "prepared 200")
        #expect(try Self.put(server, settings).status == 200)
        #expect(Self.describe(server, target) == expected)
    }

    /// WireMock's `settingGlobalRandomDistributionDelayCausesADelay`: a log-normal global
    /// delay is drawn per request, and never below zero.
    @Test func aGlobalLogNormalDelayIsDrawnPerRequest() throws {
        let server = try makeServer(mappings: Self.mappings)
        let body = #"{"delayDistribution": {"type": "lognormal", "median": 90, "sigma": 0.1}}"#
        #expect(try Self.put(server, body).status == 200)
        for _ in 0..<10 {
            guard case .delayed(.prepared, .fixed(let delay)) = StubReplyTests.reply(server, "/plain") else {
                Issue.record("expected a fixed delay drawn from the distribution")
                return
            }
            #expect(delay > .milliseconds(30) && delay < .milliseconds(300))
        }
    }

    @Test func putReplacesPatchMergesAndResetKeepsThem() throws {
        let server = try makeServer(mappings: Self.mappings)
        #expect(server.admin.settings == GlobalSettings())
        let first = try Self.put(server, #"{"fixedDelay": 10, "extended": {"a": 1, "b": 2}}"#)
        #expect(first.json["settings"]?["fixedDelay"] == .int(10))
        _ = try Self.put(server, #"{"fixedDelay": 20, "extended": {"b": 3, "c": 4}}"#, method: "PATCH")
        #expect(server.admin.settings.fixedDelay == 20)
        #expect(server.admin.settings.extended == ["a": 1, "b": 3, "c": 4])
        _ = try Self.put(server, #"{"fixedDelay": null}"#, method: "PATCH")
        #expect(server.admin.settings.fixedDelay == nil && server.admin.settings.extended?["a"] == .int(1))
        #expect(try server.answer("POST", "/__admin/reset").status == 200)
        #expect(server.admin.settings.extended?["c"] == .int(4), "settings outlive a reset, as in WireMock")
        _ = try Self.put(server, #"{"delayDistribution": {"type": "uniform", "lower": 1, "upper": 2}}"#)
        #expect(
            server.admin.settings == GlobalSettings(delayDistribution: .uniform(lower: 1, upper: 2)),
            "PUT replaces: what it leaves out is unset")
        let read = try server.answer("GET", "/__admin/settings")
        #expect(
            read.text.filter { !$0.isWhitespace }
                == #"{"settings":{"delayDistribution":{"type":"uniform","lower":1,"upper":2},"proxyPassThrough":true}}"#
        )
    }

    @Test func settingsReadBackAreAcceptedAsTheyAre() throws {
        let server = try makeServer(mappings: Self.mappings)
        server.admin.settings = GlobalSettings(
            fixedDelay: 5, delayDistribution: .lognormal(median: 20, sigma: 0.2, maxValue: 100), extended: ["x": [1]])
        let read = try server.answer("GET", "/__admin/settings")
        server.admin.settings = GlobalSettings()
        #expect(try Self.put(server, read.text).status == 200)
        #expect(server.admin.settings.fixedDelay == 5 && server.admin.settings.extended == ["x": [1]])
        #expect(server.admin.settings.delayDistribution == .lognormal(median: 20, sigma: 0.2, maxValue: 100))
    }

    /// Each refusal: the method and route, the body, the status and the JSON pointer named.
    @Test(
        arguments: [
            ("PUT", "/__admin/settings", #"{"proxyPassThrough": false}"#, 422, "/proxyPassThrough"),
            ("PUT", "/__admin/settings", #"{"fixedDelay": "500"}"#, 422, "/fixedDelay"),
            ("POST", "/__admin/settings", #"{"fixedDelay": -1}"#, 422, "/fixedDelay"),
            ("PUT", "/__admin/settings", #"{"delayDistribution": {"type": "gamma"}}"#, 422, "/delayDistribution/type"),
            (
                "PUT", "/__admin/settings", #"{"delayDistribution": {"type": "uniform", "lower": 5}}"#, 422,
                "/delayDistribution/upper"
            ),
            ("PUT", "/__admin/settings", #"{"extended": [1]}"#, 422, "/extended"),
            ("PUT", "/__admin/settings", #"{"fixedDelay": 1, "latency": 5}"#, 422, "/latency"),
            (
                "PATCH", "/__admin/settings", #"{"settings": {"chunkedDribbleDelay": {}}}"#, 422,
                "/settings/chunkedDribbleDelay"
            ),
            ("PATCH", "/__admin/settings/extended", #"{"fixedDelay": 1}"#, 422, "/fixedDelay"),
            ("PATCH", "/__admin/settings/extended", #"{}"#, 422, "/extended"),
            ("PATCH", "/__admin/settings/extended", #"{"extended": null}"#, 422, "/extended"),
            ("PUT", "/__admin/settings", "[1]", 422, ""),
            ("PUT", "/__admin/settings", "{fixedDelay: 1}", 400, nil),
        ] as [(String, String, String, Int, String?)])
    func refusalsNameTheFieldAndChangeNothing(
        _ method: String, _ path: String, _ body: String, _ status: Int, _ pointer: String?
    ) throws {
        let server = try makeServer(mappings: Self.mappings)
        server.admin.settings = GlobalSettings(fixedDelay: 42, extended: ["kept": true])
        let answer = try server.answer(method, path, body: body)
        #expect(answer.status == status, "\(answer.text)")
        if let pointer {
            #expect(answer.json["errors"]?[0]?["source"]?["pointer"] == .string(pointer), "\(answer.text)")
        } else {
            #expect(answer.json["errors"]?[0]?["title"]?.stringValue?.hasPrefix("The body is not JSON") == true)
        }
        #expect(server.admin.settings == GlobalSettings(fixedDelay: 42, extended: ["kept": true]))
        #expect(Self.describe(server, "/plain") == "after 42 ms: prepared 200")
    }

    @Test func anUnknownSettingIsNamedWithTheKnownOnes() throws {
        let server = try makeServer(mappings: Self.mappings)
        let answer = try server.answer("PUT", "/__admin/settings", body: #"{"latency": 5}"#)
        #expect(answer.status == 422)
        let detail = answer.json["errors"]?[0]?["detail"]?.stringValue ?? ""
        #expect(detail.contains("'latency'") && detail.contains("'fixedDelay'") && detail.contains("'extended'"))
    }

    /// WireMock's `getVersionRequestDefaultsToJson` and `...ReturnsTextBodyWhenAcceptHeaderIsTextPlain`.
    @Test func theVersionIsJSONOrTextAsAccepted() throws {
        let server = try makeServer()
        let json = try server.answer("GET", "/__admin/version")
        #expect(json.headers["Content-Type"] == "application/json")
        #expect(json.json == ["version": .string(StubServer.version)])
        let text = try server.answer("GET", "/__admin/version", headers: [("Accept", "text/plain")])
        #expect(text.headers["Content-Type"] == "text/plain" && text.text == StubServer.version)
        let health = try server.answer("GET", "/__admin/health")
        #expect(health.json["version"] == .string(StubServer.version), "one version for both routes")
    }
}
