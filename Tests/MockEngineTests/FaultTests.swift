import HTTPCore
import HTTPServerKit
import JSONKit
import MockEngine
import StubFormat
import StubServerKit
import TestSupport
import Testing

/// WireMock's faults, delays, dribbling and gzip, and scenarios, over real sockets (delays as
/// reply values, the dribble on a hand-moved server clock).
@Suite struct FaultTests {
    static func stub(_ path: String, _ response: ResponseDefinition) -> StubMapping {
        StubMapping(request: RequestPattern(method: .get, url: .urlPath(path)), response: response)
    }

    static let mappings: [StubMapping] = [
        stub("/empty", ResponseDefinition(fault: .emptyResponse)),
        stub("/reset", ResponseDefinition(fault: .connectionResetByPeer)),
        stub("/random", ResponseDefinition(fault: .randomDataThenClose)),
        stub("/malformed", ResponseDefinition(fault: .malformedResponseChunk)),
        stub("/fixed", ResponseDefinition(body: .text("late"), fixedDelayMilliseconds: 200)),
        stub("/uniform", ResponseDefinition(body: .text("late"), delayDistribution: .uniform(lower: 100, upper: 150))),
        stub(
            "/lognormal", ResponseDefinition(body: .text("late"), delayDistribution: .lognormal(median: 20, sigma: 0.1))
        ),
        stub(
            "/dribble",
            ResponseDefinition(
                body: .text(String(repeating: "abcdefghij", count: 10)),
                chunkedDribbleDelay: ChunkedDribbleDelay(numberOfChunks: 5, totalDuration: 200))),
        stub(
            "/large",
            ResponseDefinition(
                headers: ["Content-Type": "application/json"], body: .text(String(repeating: "[1,2,3],", count: 400)))),
        stub("/status", ResponseDefinition(status: 299, statusMessage: "Custom Reason", body: .text("odd"))),
    ]

    @Test func emptyResponseClosesWithoutAByte() throws {
        let server = try startServer(mappings: Self.mappings)
        defer { server.stop() }
        guard case .closed(let bytes) = try exchange(server.port, "/empty") else {
            Issue.record("expected a close")
            return
        }
        #expect(bytes.isEmpty)
    }

    @Test func connectionResetByPeer() throws {
        let server = try startServer(mappings: Self.mappings)
        defer { server.stop() }
        let outcome = try exchange(server.port, "/reset")
        guard case .reset = outcome else {
            Issue.record("expected a reset, got \(outcome)")
            return
        }
    }

    @Test func randomDataThenClose() throws {
        let server = try startServer(mappings: Self.mappings)
        defer { server.stop() }
        let outcome = try exchange(server.port, "/random")
        switch outcome {
        case .closed(let bytes), .malformed(let bytes): #expect(!bytes.isEmpty)
        default: Issue.record("expected garbage then close, got \(outcome)")
        }
    }

    @Test func malformedResponseChunk() throws {
        let server = try startServer(mappings: Self.mappings)
        defer { server.stop() }
        let outcome = try exchange(server.port, "/malformed")
        guard case .malformed(let bytes) = outcome else {
            Issue.record("expected a malformed chunk, got \(outcome)")
            return
        }
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK"))
    }

    @Test func delaysHoldTheAnswer() throws {
        // As reply values: the loop holding a delayed reply on its timers is HTTPServerFaultTests'.
        let server = try makeServer(mappings: Self.mappings)
        let bounds: [(String, ClosedRange<Duration>)] = [
            ("/fixed", .milliseconds(200) ... .milliseconds(200)),
            ("/uniform", .milliseconds(100) ... .milliseconds(150)),
            ("/lognormal", .milliseconds(1) ... .seconds(1)),
        ]
        for (path, range) in bounds {
            let delay = try #require(server.reply(path).fixedDelay, "\(path)")
            #expect(range.contains(delay), "\(path): \(delay)")
            #expect(try server.answer(path).text == "late")
        }
    }

    @Test func dribbleSendsTheBodyInChunks() throws {
        // The stub's 200 ms dribble on a hand-moved server clock: no real wait.
        let server = try ClockedHTTPServer(handler: makeServer(mappings: Self.mappings))
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send(get("/dribble"))
        try server.requestArrived()
        server.advance(by: .milliseconds(200))
        let response = try client.readResponse()
        #expect(response.text == String(repeating: "abcdefghij", count: 10))
        #expect(response.chunkSizes == [20, 20, 20, 20, 20])
    }

    @Test func largeTextBodiesHaveAPreparedGzipForm() throws {
        let server = try startServer(mappings: Self.mappings)
        defer { server.stop() }
        let plain = try fetch(server.port, "/large")
        #expect(plain.headers["Content-Encoding"] == nil && plain.body.count == 3200)
        let gzip = try fetch(server.port, "/large", headers: [("Accept-Encoding", "gzip")])
        #expect(gzip.headers["Content-Encoding"] == "gzip" && gzip.body.count < 200)
        #expect(gzip.headers["Vary"] == "Accept-Encoding")
    }

    @Test func customStatusMessage() throws {
        let server = try startServer(mappings: Self.mappings)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.sendRequest("GET", "/status")
        guard case .response(let response) = try client.readOutcome() else {
            Issue.record("no response")
            return
        }
        #expect(response.status == 299 && response.text == "odd")
    }

    @Test func scenariosMoveThroughTheirStates() throws {
        let mappings = try [
            #"{"scenarioName": "s", "requiredScenarioState": "Started", "newScenarioState": "two", "request": {"url": "/step"}, "response": {"body": "one"}}"#,
            #"{"scenarioName": "s", "requiredScenarioState": "two", "newScenarioState": "Started", "request": {"url": "/step"}, "response": {"body": "two"}}"#,
        ].map { try StubMapping(json: $0) }
        let server = try startServer(mappings: mappings)
        defer { server.stop() }
        #expect(try fetch(server.port, "/step").text == "one")
        #expect(try fetch(server.port, "/step").text == "two")
        #expect(try fetch(server.port, "/step").text == "one")
        #expect(server.admin.scenarios().first?.state == "two")
        try server.admin.setScenarioState("Started", forScenario: "s")
        #expect(try fetch(server.port, "/step").text == "one")
        try server.admin.resetScenarios()
        #expect(server.admin.scenarios().first?.state == "Started")
        #expect(throws: AdminError.scenarioNotFound("nope")) {
            try server.admin.setScenarioState("x", forScenario: "nope")
        }
    }
}
