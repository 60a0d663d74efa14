import AdminAPI
import HTTPCore
import HTTPHandlerKit
import StubFormat
import Testing

@testable import MockEngine

/// The engine's decision for a request, as a value: which stub, which variant, what it
/// answers or why it refuses, with no socket and no effect.
@Suite struct StubDecisionTests {
    static let mappings = [
        #"{"name": "items", "request": {"method": "GET", "url": "/items"}, "response": {"status": 200, "jsonBody": {"id": 1, "name": "cup"}}}"#,
        #"{"name": "items-404", "priority": 9, "request": {"method": "GET", "url": "/items"}, "response": {"status": 404, "body": "gone"}}"#,
        #"{"name": "items-broken", "metadata": {"variant": "broken"}, "request": {"method": "GET", "url": "/items"}, "response": {"status": 200, "body": "{"}}"#,
        #"{"name": "proxied", "request": {"urlPathPattern": "/proxy/.*"}, "response": {"proxyBaseUrl": "http://127.0.0.1:9"}}"#,
        #"{"name": "door", "scenarioName": "door", "requiredScenarioState": "Started", "newScenarioState": "open", "request": {"url": "/door"}, "response": {"status": 200, "body": "closed"}}"#,
    ]

    /// What a decision is, reduced to what a table can say.
    enum Outcome: Equatable, CustomStringConvertible {
        case answer(stub: String?, status: Int?, variant: String?)
        case refuse(variant: String?, saying: String)
        case unmatched
        case proxy(stub: String?)
        case record
        case passOn
        case templateFailed
        case document
        case preflight

        var description: String {
            switch self {
            case .answer(let stub, let status, let variant): "answer \(stub ?? "-") \(status ?? 0) \(variant ?? "-")"
            case .refuse(let variant, let saying): "refuse \(variant ?? "-"): \(saying)"
            case .unmatched: "unmatched"
            case .proxy(let stub): "proxy \(stub ?? "-")"
            case .record: "record"
            case .passOn: "passOn"
            case .templateFailed: "templateFailed"
            case .preflight: "preflight"
            case .document: "document"
            }
        }
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var method: HTTPMethod = .get
        var target: String
        var headers: [(String, String)] = []
        var expected: String
        var testDescription: String { "\(method) \(target) \(headers.map { "\($0.0): \($0.1)" }) → \(expected)" }
    }

    static let rows: [Row] = [
        Row(target: "/items", expected: "answer items 200 -"),
        Row(method: .head, target: "/items", expected: "answer items 200 -"),
        Row(
            target: "/items", headers: [("X-Petmock-Variant", "missing:name")],
            expected: "answer items 200 missing:name"),
        Row(target: "/items", headers: [("X-Petmock-Variant", "broken")], expected: "answer items-broken 200 broken"),
        Row(target: "/items", headers: [("Prefer", "code=404")], expected: "answer items-404 404 code=404"),
        Row(
            target: "/items", headers: [("Prefer", "code=500")],
            expected: "refuse code=500: No stub for GET /items answers with status 500; statuses available: 200, 404"),
        Row(
            target: "/items", headers: [("X-Petmock-Variant", "nope")],
            expected: "refuse nope: Unknown variant 'nope': no mapping has this metadata.variant"),
        Row(
            target: "/items", headers: [("X-Petmock-Variant", "missing:colour")],
            expected: "refuse missing:colour: Variant 'missing:colour' does not apply"),
        Row(target: "/nothing", expected: "unmatched"),
        Row(target: "/proxy/a", expected: "proxy proxied"),
        Row(
            target: "/proxy/a", headers: [("X-Petmock-Variant", "missing:name")],
            expected: "refuse missing:name: Variant 'missing:name' does not apply: the stub that matched passes"),
        Row(target: "/door", expected: "answer door 200 -"),
    ]

    /// Nothing is sent upstream here: deciding to proxy sends nothing.
    static let noUpstream = ClosureTransport {
        (request: HTTPClientRequest) throws(HTTPClientError) -> HTTPClientResponse in
        throw HTTPClientError(kind: .other, url: request.url, message: "no upstream in this test")
    }

    static func handler() throws -> StubHandler {
        try StubHandler(
            stubsDirectory: nil, mappings: try mappings.map { try StubMapping(json: $0) },
            configuration: StubHandlerConfiguration(),
            upstream: .transport(
                Self.noUpstream))
    }

    static func outcome(of decision: StubDecision) -> Outcome {
        switch decision {
        case .answer(let stub, let served, let variant):
            .answer(stub: stub.mapping.name, status: served.status, variant: variant)
        case .refuse(let problem, _): .refuse(variant: problem.requested, saying: problem.message)
        case .unmatched: .unmatched
        case .proxy(let stub, _): .proxy(stub: stub.mapping.name)
        case .record: .record
        case .passOn: .passOn
        case .templateFailed: .templateFailed
        case .document: .document
        case .preflight: .preflight
        }
    }

    static func decide(_ row: Row, with handler: StubHandler) -> StubDecision {
        var headers = HTTPHeaders()
        for (name, value) in row.headers { headers.add(name: name, value: value) }
        let request = HTTPServerRequest(method: row.method, target: row.target, headers: headers)
        let engine = handler.engine
        let event = ServeEvent(request, snapshot: engine.store.snapshot(), scenarios: engine.scenarios)
        return engine.decide(event)
    }

    @Test(arguments: rows)
    func theDecisionIsAValue(row: Row) throws {
        let handler = try Self.handler()
        let outcome = Self.outcome(of: Self.decide(row, with: handler)).description
        #expect(outcome.hasPrefix(row.expected), "\(outcome)")
        // Deciding has no effect: nothing journaled, no scenario moved.
        #expect(handler.admin.requests().isEmpty)
        #expect(handler.admin.scenarios().allSatisfy { $0.state == "Started" })
    }

    @Test func applyingTheDecisionJournalsAndMovesTheScenario() throws {
        let handler = try Self.handler()
        let row = Row(target: "/door", expected: "")
        let first = Self.decide(row, with: handler)
        #expect(Self.outcome(of: Self.decide(row, with: handler)) == Self.outcome(of: first))
        let request = HTTPServerRequest(method: .get, target: "/door")
        let engine = handler.engine
        let event = ServeEvent(request, snapshot: engine.store.snapshot(), scenarios: engine.scenarios)
        let reply = engine.carryOut(first, event)
        #expect(reply.response()?.status.code == 200)
        #expect(handler.admin.requests().count == 1)
        #expect(handler.admin.scenarios().first { $0.name == "door" }?.state == "open")
        #expect(Self.outcome(of: Self.decide(row, with: handler)) == .unmatched)
    }

    @Test func recordingIsDecidedBeforeMatching() throws {
        let handler = try Self.handler()
        try handler.admin.startRecording(RecordingConfiguration(targetBaseURL: "http://127.0.0.1:9", persist: false))
        defer { _ = try? handler.admin.stopRecording() }
        #expect(Self.outcome(of: Self.decide(Row(target: "/items", expected: ""), with: handler)) == .record)
    }

    @Test func anUnmatchedRequestIsPassedOnWhenConfigured() throws {
        let handler = try StubHandler(
            stubsDirectory: nil, mappings: [],
            configuration: StubHandlerConfiguration(proxyUnmatched: "http://127.0.0.1:9"),
            upstream: .transport(
                Self.noUpstream))
        #expect(Self.outcome(of: Self.decide(Row(target: "/x", expected: ""), with: handler)) == .passOn)
    }
}
