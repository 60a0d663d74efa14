import AdminAPI
import HTTPCore
import HTTPHandlerKit
import JSONKit
import Platform
import StubFormat
import Testing

@testable import MockEngine

/// Each serving stage (`Sources/MockEngine/Serving/`) as a function of values, one table a
/// stage, with no socket: select, match, answer (the one drift path, the replies petmock makes
/// itself), commit and the listeners.
@Suite struct ServeStageTests {
    static func handler() throws -> StubHandler { try StubDecisionTests.handler() }

    static func event(
        _ target: String, method: HTTPMethod = .get, headers: [(String, String)] = [], in handler: StubHandler
    )
        -> ServeEvent
    {
        var fields = HTTPHeaders()
        for (name, value) in headers { fields.add(name: name, value: value) }
        let request = HTTPServerRequest(method: method, target: target, headers: fields)
        return ServeEvent(request, snapshot: handler.engine.store.snapshot(), scenarios: handler.engine.scenarios)
    }

    // MARK: select

    struct SelectRow: Sendable, CustomTestStringConvertible {
        var target = "/items"
        var headers: [(String, String)]
        var expected: String
        var testDescription: String { "\(target) \(headers.map { "\($0.0): \($0.1)" }) → \(expected)" }
    }

    static let selectRows = [
        SelectRow(headers: [], expected: "serve - - -"),
        SelectRow(headers: [("X-Petmock-Variant", "missing:name")], expected: "serve missing:name - missing:name"),
        SelectRow(headers: [("X-Petmock-Variant", "broken")], expected: "serve broken - broken"),
        SelectRow(headers: [("Prefer", "code=404")], expected: "serve - 404 -"),
        // A name no stub has: refused; `Prefer: example=` names the document's examples too.
        SelectRow(headers: [("X-Petmock-Variant", "nope")], expected: "refuse nope document:false unknown variant"),
        SelectRow(headers: [("Prefer", "example=nope")], expected: "refuse nope document:true unknown variant"),
        SelectRow(
            headers: [("X-Petmock-Variant", "missing:")], expected: "refuse missing: document:false unknown variant"),
        // Prism's query forms, which the header's items win over.
        SelectRow(target: "/items?__code=404", headers: [], expected: "serve - 404 -"),
        SelectRow(target: "/items?__code=404", headers: [("Prefer", "code=201")], expected: "serve - 201 -"),
        SelectRow(target: "/items?__example=nope", headers: [], expected: "refuse nope document:true unknown variant"),
        SelectRow(
            target: "/items?__example=nope&__code=404", headers: [("Prefer", "code=201")],
            expected: "refuse nope document:true unknown variant"),
        SelectRow(target: "/items?__code=abc", headers: [], expected: "refuse - document:true invalid Prefer header"),
    ]

    static func describe(_ selection: SelectStage.Selection) -> String {
        switch selection {
        case .record(let target, _): "record \(target)"
        case .serve(let chosen):
            "serve \(chosen.variant?.description ?? "-") \(chosen.status.map(String.init) ?? "-") \(chosen.requested ?? "-")"
        case .refuse(let decision, let documentMayAnswer):
            if case .refuse(let problem, _) = decision {
                "refuse \(problem.requested ?? "-") document:\(documentMayAnswer) \(problem.kind.rawValue)"
            } else {
                "refuse with \(decision)"
            }
        }
    }

    @Test(arguments: selectRows)
    func selectReadsTheHeadersAgainstTheSnapshot(row: SelectRow) throws {
        let handler = try Self.handler()
        let event = Self.event(row.target, headers: row.headers, in: handler)
        let selection = SelectStage.select(
            event.request.headers, query: event.matchable.queryParameters, snapshot: event.snapshot, recording: nil)
        #expect(Self.describe(selection) == row.expected)
    }

    @Test func recordingIsSelectedBeforeAnyVariant() throws {
        let handler = try Self.handler()
        let recorder = try Recorder(
            configuration: RecordingConfiguration(targetBaseURL: "http://127.0.0.1:9", persist: false),
            stubsDirectory: nil)
        let event = Self.event("/items", headers: [("X-Petmock-Variant", "nope")], in: handler)
        let selection = SelectStage.select(
            event.request.headers, query: [], snapshot: event.snapshot, recording: ("http://127.0.0.1:9", recorder))
        #expect(Self.describe(selection) == "record http://127.0.0.1:9")
    }

    // MARK: match

    struct MatchRow: Sendable, CustomTestStringConvertible {
        var method: HTTPMethod = .get
        var target: String
        var selection: RequestedVariantRow = .none
        var expected: String?
        var testDescription: String { "\(method) \(target) under \(selection) → \(expected ?? "no stub")" }
    }

    enum RequestedVariantRow: Sendable, CustomStringConvertible {
        case none, named(String), status(Int)
        var value: RequestedVariant {
            switch self {
            case .none: .none
            case .named(let name): RequestedVariant(variant: try? Variant(name), status: nil, requested: name)
            case .status(let code): RequestedVariant(variant: nil, status: code, requested: nil)
            }
        }
        var description: String {
            switch self {
            case .none: "nothing"
            case .named(let name): name
            case .status(let code): "code=\(code)"
            }
        }
    }

    static let matchRows = [
        MatchRow(target: "/items", expected: "items"),
        MatchRow(method: .head, target: "/items", expected: "items"),
        MatchRow(target: "/items", selection: .named("broken"), expected: "items-broken"),
        MatchRow(target: "/items", selection: .named("missing:name"), expected: "items"),
        MatchRow(target: "/items", selection: .status(404), expected: "items-404"),
        MatchRow(target: "/items", selection: .status(500), expected: nil),
        MatchRow(target: "/nothing", expected: nil),
        MatchRow(target: "/proxy/a", expected: "proxied"),
    ]

    @Test(arguments: matchRows)
    func matchFindsTheStubUnderTheSelection(row: MatchRow) throws {
        let handler = try Self.handler()
        let event = Self.event(row.target, method: row.method, in: handler)
        event.selection = row.selection.value
        #expect(MatchStage.match(event)?.mapping.name == row.expected)
    }

    @Test func aStatusNoStubAnswersWithIsRefusedNamingTheStatusesThereAre() throws {
        let handler = try Self.handler()
        let event = Self.event("/items", in: handler)
        guard case .refuse(let problem, _) = MatchStage.noStub(answering: 500, event) else {
            Issue.record("expected a refusal")
            return
        }
        #expect(problem.requested == "code=500")
        #expect(problem.kind == .unansweredStatus)
        #expect(problem.message == "No stub for GET /items answers with status 500; statuses available: 200, 404")
    }

    // MARK: answer: the one drift path, for the document's answers as for stubs'

    struct DriftRow: Sendable, CustomTestStringConvertible {
        var variant: String?
        var requested: Bool
        var violations: Bool = false
        var expected: String
        var testDescription: String {
            "\(variant ?? "no variant")\(requested ? " asked for" : " server-wide")\(violations ? ", refused request" : "") → \(expected)"
        }
    }

    static let driftRows = [
        DriftRow(variant: nil, requested: false, expected: #"document {"id":1,"name":"cup"}"#),
        DriftRow(variant: "missing:name", requested: true, expected: #"document {"id":1}"#),
        DriftRow(variant: "missing:name", requested: false, expected: #"document {"id":1}"#),
        DriftRow(variant: "missing:colour", requested: false, expected: #"document {"id":1,"name":"cup"}"#),
        DriftRow(variant: "missing:colour", requested: true, expected: "refuse id,name"),
        DriftRow(
            variant: "missing:name", requested: true, violations: true, expected: #"document {"id":1,"name":"cup"}"#),
    ]

    @Test(arguments: driftRows)
    func theDocumentsAnswerDriftsAsAStubsDoes(row: DriftRow) throws {
        let response = PreparedResponse(
            HTTPResponse(
                status: .ok, headers: ["Content-Type": "application/json"], body: Array(#"{"id":1,"name":"cup"}"#.utf8))
        )
        let violations =
            row.violations
            ? [
                RequestViolation(
                    location: "query limit", expected: "an integer", found: "ten", message: "not an integer")
            ] : []
        let answer = FallbackAnswer(response, operation: "GET /items", violations: violations)
        let selection = RequestedVariant(
            variant: try row.variant.map { try Variant($0) }, status: nil, requested: row.requested ? row.variant : nil)
        switch AnswerStage.answer(answer, under: selection) {
        case .document(.prepared(let prepared, _, _), let variant, let kept):
            #expect("document " + String(decoding: prepared.response.body, as: UTF8.self) == row.expected)
            #expect(variant == row.variant)
            #expect(kept.operation == "GET /items")
        case .refuse(let problem, let knownFields):
            #expect("refuse " + (knownFields ?? []).joined(separator: ",") == row.expected)
            #expect(problem.requested == row.variant)
            #expect(problem.kind == .inapplicableVariant)
        default:
            Issue.record("expected a document answer or a refusal")
        }
    }

    // MARK: answer: the replies petmock makes itself, and what commit journals of them

    @Test func eachAnsweredDecisionIsAReplyAndAnOutcome() throws {
        let handler = try Self.handler()
        let event = Self.event("/items", headers: [("Accept", "application/json")], in: handler)
        let stub = try #require(MatchStage.match(event))
        let rows: [(StubDecision, status: Int?, variant: String?, stub: String?)] = [
            (.answer(stub, stub.served, variant: "missing:name"), 200, "missing:name", "items"),
            (.templateFailed(stub, message: "no such helper", variant: nil), 500, nil, "items"),
            (
                .refuse(RequestProblem(.unknownVariant, requested: "nope", message: "no"), knownFields: ["id"]), 400,
                "nope", nil
            ),
            (.unmatched(variant: nil), 404, nil, nil),
        ]
        for (decision, status, variant, stubName) in rows {
            let (reply, outcome) = AnswerStage.reply(to: decision, event, delaying: nil)
            #expect(reply.response()?.status.code == status, "\(decision)")
            #expect(outcome.status == status, "\(decision)")
            #expect(outcome.variant == variant, "\(decision)")
            #expect(outcome.stub?.mapping.name == stubName, "\(decision)")
            #expect(outcome.forwarded == nil)
        }
        let (refused, _) = AnswerStage.reply(
            to: .refuse(RequestProblem(.unknownVariant, requested: "nope", message: "no"), knownFields: ["id"]), event,
            delaying: nil)
        let body = try JSONValue(parsing: try #require(refused.response()).body)
        #expect(body["knownFields"] == .array(["id"]), "a client that asks for JSON gets it")
    }

    @Test func theGlobalDelayIsReadForStubAnswersOnly() throws {
        let handler = try Self.handler()
        let event = Self.event("/items", in: handler)
        let stub = try #require(MatchStage.match(event))
        var read = 0
        let settings = GlobalSettings(fixedDelay: 250)
        func delaying() -> GlobalSettings? {
            read += 1
            return settings
        }
        let (answered, _) = AnswerStage.reply(to: .answer(stub, stub.served, variant: nil), event, delaying: delaying())
        #expect(Self.delay(of: answered) == .fixed(.milliseconds(250)))
        let (refused, _) = AnswerStage.reply(to: .unmatched(variant: nil), event, delaying: delaying())
        #expect(Self.delay(of: refused) == .none)
        #expect(read == 1)
    }

    static func delay(of reply: HTTPReply) -> HTTPDelay {
        if case .delayed(_, let delay) = reply { return delay }
        return .none
    }

    // MARK: commit and the listeners

    final class Heard: ServeListener {
        let outcomes = Locked<[String]>([])
        func served(_ request: HTTPServerRequest, _ outcome: ServeOutcome) {
            outcomes.withLock {
                $0.append("\(request.method) \(request.head.target) \(outcome.status.map(String.init) ?? "fault")")
            }
        }
    }

    @Test func commitJournalsOnceThenTellsTheListenersInOrder() throws {
        let store = try StubStore(
            loader: nil, codeMappings: try StubDecisionTests.mappings.map { try StubMapping(json: $0) },
            serverVariant: nil, globalResponseTemplating: false, clock: .system)
        let heard = Heard()
        let events = Locked<[StubServerEvent]>([])
        let engine = StubEngine(
            store: store, journalCapacity: 10, proxyUnmatched: nil, upstreamTimeout: .seconds(1),
            upstream: UpstreamProxy(clients: .transport(StubDecisionTests.noUpstream)), fallback: nil,
            publish: { event in events.withLock { $0.append(event) } }, listeners: [heard])
        for target in ["/items", "/nothing", "/door", "/door"] {
            _ = engine.reply(to: HTTPServerRequest(method: .get, target: target))
        }
        #expect(
            heard.outcomes.withLock { $0 } == ["GET /items 200", "GET /nothing 404", "GET /door 200", "GET /door 404"])
        #expect(engine.journal.count == 4)
        // Only a request passed on upstream is announced to the server's subscribers.
        #expect(events.withLock { $0.isEmpty })
    }

    @Test func anUnmatchedRequestPassedOnIsAnnounced() throws {
        let events = Locked<[StubServerEvent]>([])
        let announcer = ProxiedRequestAnnouncer(publish: { event in events.withLock { $0.append(event) } })
        let request = HTTPServerRequest(method: .get, target: "/x?y=1")
        let upstream = UpstreamResult(
            url: "http://127.0.0.1:9/x?y=1",
            outcome: .failure(
                HTTPClientError(kind: .couldNotConnect, url: "http://127.0.0.1:9/x?y=1", message: "refused")),
            duration: .milliseconds(3))
        announcer.served(request, ServeOutcome(forwarded: .stub, status: 502, stub: nil, upstream: upstream))
        announcer.served(request, ServeOutcome(forwarded: .recording, status: 502, stub: nil, upstream: upstream))
        announcer.served(request, ServeOutcome(forwarded: .unmatched, status: 503, stub: nil, upstream: nil))
        #expect(events.withLock { $0.isEmpty }, "only an unmatched request that reached upstream")
        announcer.served(request, ServeOutcome(forwarded: .unmatched, status: 502, stub: nil, upstream: upstream))
        let said = events.withLock { $0.map { "\($0)" } }
        #expect(said.count == 1)
        #expect(said.first?.contains("GET /x?y=1") == true, "\(said)")
    }

    @Test func theJournalEntryIsTheRequestAsSentWithItsOutcome() throws {
        let handler = try Self.handler()
        let engine = handler.engine
        let request = HTTPServerRequest(method: .get, target: "http://example.test/items?x=1")
        let entry = engine.commit.entry(request, ServeOutcome(status: 203, variant: "code=203"))
        #expect(entry.url == "/items?x=1", "an absolute-form target is journaled in origin form")
        #expect(entry.responseStatus == 203)
        #expect(entry.variant == "code=203")
        #expect(entry.upstream == nil)
        #expect(engine.journal.count == 0, "making an entry journals nothing")
    }
}
