import AdminAPI
import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine
import StubFormat
import TestSupport
import Testing

@testable import MockEngine

/// The CORS stage (`Serving/CORS.swift`) as values, with no socket: which requests are
/// preflights, who answers them (a stub naming OPTIONS wins), the preflight's answer, and the
/// fields added to every other answer to a request with `Origin`.
@Suite struct CORSStageTests {
    static let mappings = [
        #"{"name": "items", "request": {"method": "GET", "url": "/items"}, "response": {"status": 200, "headers": {"X-Total": "2", "Content-Type": "application/json"}, "jsonBody": [1, 2]}}"#,
        #"{"name": "options", "request": {"method": "OPTIONS", "url": "/own"}, "response": {"status": 200, "headers": {"Allow": "GET"}}}"#,
        #"{"name": "one-of", "request": {"method": {"oneOf": ["GET", "OPTIONS"]}, "url": "/either"}, "response": {"status": 200}}"#,
        #"{"name": "any", "request": {"method": "ANY", "url": "/any"}, "response": {"status": 200}}"#,
        #"{"name": "own-cors", "request": {"method": "GET", "url": "/own-cors"}, "response": {"status": 200, "headers": {"Access-Control-Allow-Origin": "*", "X-Mine": "1"}}}"#,
        #"{"name": "slow", "request": {"method": "GET", "url": "/slow"}, "response": {"status": 200, "fixedDelayMilliseconds": 5, "body": "late"}}"#,
    ]

    static func handler(cors: Bool = true) throws -> StubHandler {
        try StubHandler(
            stubsDirectory: nil, mappings: try mappings.map { try StubMapping(json: $0) },
            configuration: StubHandlerConfiguration(cors: cors), upstream: .transport(StubDecisionTests.noUpstream))
    }

    static let preflightFields = [
        ("Origin", "http://app.test:3000"), ("Access-Control-Request-Method", "PUT"),
        ("Access-Control-Request-Headers", "content-type, x-trace"),
    ]

    // MARK: which requests are preflights

    struct PreflightRow: Sendable, CustomTestStringConvertible {
        var method: HTTPMethod = .options
        var headers: [(String, String)]
        var expected: String?
        var testDescription: String { "\(method) \(headers.map(\.0)) → \(expected ?? "not a preflight")" }
    }

    static let preflightRows = [
        PreflightRow(headers: preflightFields, expected: "http://app.test:3000 PUT content-type, x-trace"),
        PreflightRow(
            headers: [("origin", "null"), ("access-control-request-method", "DELETE")], expected: "null DELETE -"),
        // An OPTIONS without both is not a preflight; neither is another method with both.
        PreflightRow(headers: [("Origin", "http://app.test")], expected: nil),
        PreflightRow(headers: [("Access-Control-Request-Method", "PUT")], expected: nil),
        PreflightRow(headers: [], expected: nil),
        PreflightRow(method: .get, headers: preflightFields, expected: nil),
    ]

    @Test(arguments: preflightRows)
    func aPreflightIsAnOptionsWithOriginAndARequestMethod(row: PreflightRow) {
        let request = HTTPServerRequest(method: row.method, target: "/items", headers: HTTPHeaders(row.headers))
        let preflight = CORSStage.Preflight(request)
        #expect(preflight.map { "\($0.origin) \($0.method) \($0.headers ?? "-")" } == row.expected)
    }

    // MARK: who answers it

    struct DecisionRow: Sendable, CustomTestStringConvertible {
        var cors = true
        var target: String
        var headers: [(String, String)] = CORSStageTests.preflightFields
        var expected: String
        var testDescription: String { "cors \(cors) OPTIONS \(target) \(headers.map(\.0)) → \(expected)" }
    }

    static let decisionRows = [
        DecisionRow(target: "/items", expected: "preflight"),
        // No stub or document at all for the path: still allowed (the request to come says why not).
        DecisionRow(target: "/nothing", expected: "preflight"),
        // A stub naming OPTIONS wins, alone or among oneOf; ANY does not name it.
        DecisionRow(target: "/own", expected: "answer options 200 -"),
        DecisionRow(target: "/either", expected: "answer one-of 200 -"),
        DecisionRow(target: "/any", expected: "preflight"),
        // Not a preflight: served as today.
        DecisionRow(target: "/items", headers: [("Origin", "http://app.test")], expected: "unmatched"),
        DecisionRow(target: "/any", headers: [("Origin", "http://app.test")], expected: "answer any 200 -"),
        // CORS off: a preflight is any other OPTIONS.
        DecisionRow(cors: false, target: "/items", expected: "unmatched"),
        DecisionRow(cors: false, target: "/any", expected: "answer any 200 -"),
    ]

    @Test(arguments: decisionRows)
    func aPreflightNoStubNamingOptionsMatchedIsPetmocks(row: DecisionRow) throws {
        let handler = try Self.handler(cors: row.cors)
        let decision = StubDecisionTests.decide(
            StubDecisionTests.Row(method: .options, target: row.target, headers: row.headers, expected: ""),
            with: handler)
        #expect(StubDecisionTests.outcome(of: decision).description == row.expected)
    }

    // MARK: the preflight's answer

    @Test func thePreflightIsA204AllowingWhatItAsks() throws {
        let request = HTTPServerRequest(
            method: .options, target: "/items", headers: HTTPHeaders(Self.preflightFields))
        let answer = CORSStage.response(to: try #require(CORSStage.Preflight(request)))
        #expect(answer.status.code == 204)
        #expect(answer.body.isEmpty)
        #expect(
            answer.headers.fields.map { "\($0.name): \($0.value)" } == [
                "Access-Control-Allow-Origin: http://app.test:3000",
                "Access-Control-Allow-Credentials: true",
                "Access-Control-Allow-Methods: PUT",
                "Access-Control-Allow-Headers: content-type, x-trace",
                "Access-Control-Max-Age: 1800",
                "Vary: Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
            ])
        let bare = HTTPServerRequest(
            method: .options, target: "/items",
            headers: ["Origin": "http://app.test", "Access-Control-Request-Method": "GET"])
        let plain = CORSStage.response(to: try #require(CORSStage.Preflight(bare)))
        #expect(!plain.headers.contains(name: "Access-Control-Allow-Headers"), "nothing asked, nothing allowed")
    }

    // MARK: the fields of an actual answer

    struct ExposeRow: Sendable, CustomTestStringConvertible {
        var name: String
        var headers: [(String, String)]
        var forwarded = false
        var expected: [String]
        var testDescription: String { name }
    }

    static let exposeRows = [
        ExposeRow(
            name: "the answer's own fields are exposed, the safelisted ones not",
            headers: [("Content-Type", "application/json"), ("X-Total", "2"), ("ETag", "\"a\""), ("x-total", "3")],
            expected: [
                "Content-Type: application/json", "X-Total: 2", "ETag: \"a\"", "x-total: 3",
                "Access-Control-Allow-Origin: http://app.test", "Access-Control-Allow-Credentials: true",
                "Access-Control-Expose-Headers: X-Total, ETag", "Vary: Origin",
            ]),
        ExposeRow(
            name: "nothing to expose, no Expose-Headers; a Vary of its own gets Origin beside it",
            headers: [("Content-Type", "text/plain"), ("Vary", "Accept")],
            expected: [
                "Content-Type: text/plain", "Vary: Accept", "Access-Control-Allow-Origin: http://app.test",
                "Access-Control-Allow-Credentials: true", "Vary: Origin",
            ]),
        ExposeRow(
            name: "a Vary naming Origin already is not repeated",
            headers: [("vary", "accept, origin")],
            expected: [
                "vary: accept, origin", "Access-Control-Allow-Origin: http://app.test",
                "Access-Control-Allow-Credentials: true",
            ]),
        ExposeRow(
            name: "an answer that allows an origin itself keeps its own CORS fields, nothing added",
            headers: [("Access-Control-Allow-Origin", "*"), ("X-Mine", "1")],
            expected: ["Access-Control-Allow-Origin: *", "X-Mine: 1"]),
        ExposeRow(
            name: "its own Expose-Headers and Allow-Credentials are kept, never doubled",
            headers: [("Access-Control-Expose-Headers", "X-Mine"), ("Access-Control-Allow-Credentials", "false")],
            expected: [
                "Access-Control-Expose-Headers: X-Mine", "Access-Control-Allow-Credentials: false",
                "Access-Control-Allow-Origin: http://app.test", "Vary: Origin",
            ]),
        ExposeRow(
            name: "an upstream's CORS fields are replaced by petmock's",
            headers: [
                ("Access-Control-Allow-Origin", "https://api.example"), ("access-control-max-age", "5"),
                ("X-Up", "1"),
            ],
            forwarded: true,
            expected: [
                "X-Up: 1", "Access-Control-Allow-Origin: http://app.test", "Access-Control-Allow-Credentials: true",
                "Access-Control-Expose-Headers: X-Up", "Vary: Origin",
            ]),
    ]

    @Test(arguments: exposeRows)
    func anAnswerToARequestWithOriginAllowsItAndExposesItsFields(row: ExposeRow) {
        var response = HTTPResponse(headers: HTTPHeaders(row.headers))
        CORSStage.expose(&response, to: "http://app.test", forwarded: row.forwarded)
        #expect(response.headers.fields.map { "\($0.name): \($0.value)" } == row.expected)
    }

    @Test func everyKindOfReplyIsExposedAndAFaultLeftAlone() throws {
        let origin = "http://app.test"
        let prepared = PreparedResponse(
            HTTPResponse(
                headers: ["X-A": "1"], body: Array(repeating: UInt8(ascii: "a"), count: 2000),
                compression: .gzipIfAccepted))
        guard case .response(let built) = CORSStage.expose(.prepared(prepared), to: origin, forwarded: false) else {
            Issue.record("a prepared answer is rebuilt with the fields")
            return
        }
        #expect(built.headers["Access-Control-Allow-Origin"] == origin)
        #expect(built.body == prepared.response.body)
        guard case .precompressedGzip(let gzip) = built.compression else {
            Issue.record("the prepared gzip form is reused, not compressed again")
            return
        }
        let form = try #require(prepared.gzip)
        #expect(gzip == Array(form.storage.bytes[form.body]))

        let delayed = CORSStage.expose(
            .response(HTTPResponse(text: "late")).delayed(by: .fixed(.milliseconds(5))), to: origin, forwarded: false)
        guard case .delayed(.response(let inner), _) = delayed else {
            Issue.record("a delay is kept around the exposed answer")
            return
        }
        #expect(inner.headers["Access-Control-Allow-Origin"] == origin)

        let later = DeferredReply()
        let deferred = CORSStage.expose(.deferred(later), to: origin, forwarded: true)
        later.complete(.response(HTTPResponse(headers: ["Access-Control-Allow-Origin": "*"])))
        #expect(deferred.response()?.headers.values(name: "Access-Control-Allow-Origin") == [origin])

        guard case .fault(.connectionReset) = CORSStage.expose(.fault(.connectionReset), to: origin, forwarded: false)
        else {
            Issue.record("a fault has no fields")
            return
        }
    }

    /// An upstream's answers (recording, `--proxy-unmatched`, proxy stubs) have their CORS fields
    /// replaced; the others keep theirs.
    @Test func onlyForwardedDecisionsHaveTheirFieldsReplaced() throws {
        let preflight = try #require(
            CORSStage.Preflight(
                HTTPServerRequest(method: .options, target: "/", headers: HTTPHeaders(Self.preflightFields))))
        let rows: [(StubDecision, Bool)] = [
            (.passOn(target: "http://127.0.0.1:9"), true), (.unmatched(variant: nil), false),
            (.preflight(preflight), false),
            (.refuse(RequestProblem(.unknownVariant, requested: "x", message: "no")), false),
        ]
        for (decision, forwarded) in rows { #expect(decision.isForwarded == forwarded, "\(decision)") }
    }

    // MARK: through the handler

    @Test func withoutOriginTheReplyIsThePreparedAnswerItself() throws {
        let handler = try Self.handler()
        let request = HTTPServerRequest(method: .get, target: "/items")
        guard case .prepared(let first) = handler.reply(to: request),
            case .prepared(let second) = handler.reply(to: request)
        else {
            Issue.record("a request without Origin gets the answer prepared at load")
            return
        }
        #expect(first === second)
        #expect(!first.response.headers.contains(name: "Access-Control-Allow-Origin"))
    }

    @Test func everyAnswerToARequestWithOriginCarriesTheFields() throws {
        let handler = try Self.handler()
        let origin = [("Origin", "http://app.test")]
        let items = try handler.answer("/items", headers: origin)
        #expect(items.status == 200)
        #expect(items.header("Access-Control-Allow-Origin") == "http://app.test")
        #expect(items.header("Access-Control-Allow-Credentials") == "true")
        #expect(items.header("Access-Control-Expose-Headers")?.hasPrefix("X-Total, Matched-Stub-Id") == true)
        #expect(items.header("Vary") == "Origin")
        #expect(items.text == "[1,2]")
        // petmock's own refusals and 404s, a delayed answer: the same fields.
        for target in ["/nothing", "/slow"] {
            let answer = try handler.answer(target, headers: origin)
            #expect(answer.header("Access-Control-Allow-Origin") == "http://app.test", "\(target)")
        }
        let refused = try handler.answer("/items", headers: origin + [("X-Petmock-Variant", "nope")])
        #expect(refused.status == 400)
        #expect(refused.header("Access-Control-Allow-Origin") == "http://app.test")
        // A stub that allows an origin itself keeps it.
        let own = try handler.answer("/own-cors", headers: origin)
        #expect(own.headers.values(name: "Access-Control-Allow-Origin") == ["*"])
        #expect(own.header("Access-Control-Allow-Credentials") == nil)
        // CORS off: nothing added.
        let off = try Self.handler(cors: false).answer("/items", headers: origin)
        #expect(off.header("Access-Control-Allow-Origin") == nil)
        #expect(off.header("Vary") == nil)
    }

    @Test func aPreflightIsAnsweredJournaledAndLabelled() throws {
        let handler = try Self.handler()
        let preflight = try handler.answer("OPTIONS", "/items", headers: Self.preflightFields)
        #expect(preflight.status == 204)
        #expect(preflight.body.isEmpty)
        #expect(preflight.header("Access-Control-Allow-Origin") == "http://app.test:3000")
        #expect(preflight.header("Access-Control-Allow-Methods") == "PUT")
        #expect(preflight.header("Access-Control-Allow-Headers") == "content-type, x-trace")
        #expect(preflight.headers.values(name: "Access-Control-Allow-Origin").count == 1)
        // A stub naming OPTIONS answers its own preflight, with the fields added.
        let own = try handler.answer("OPTIONS", "/own", headers: Self.preflightFields)
        #expect(own.status == 200)
        #expect(own.header("Allow") == "GET")
        #expect(own.header("Access-Control-Allow-Origin") == "http://app.test:3000")
        #expect(own.header("Access-Control-Allow-Methods") == nil)

        let entries = handler.admin.requests()
        let entry = try #require(entries.first { $0.url == "/items" })
        #expect(entry.responseStatus == 204)
        #expect(entry.isPreflight)
        #expect(!entry.wasMatched)
        #expect(entry.description.contains("OPTIONS /items -> 204, CORS preflight"), "\(entry)")
        #expect(entries.first { $0.url == "/own" }?.isPreflight == false)

        let journal = try JSONValue(parsing: try handler.answer("/__admin/requests").body)
        let events = try #require(journal["requests"]?.arrayValue)
        let event = try #require(events.first { $0["request"]?["url"] == "/items" })
        #expect(event["petmockStubLabel"] == "CORS preflight")
        #expect(event["petmockPreflight"] == true)
        #expect(event["response"]?["status"] == 204)
    }
}
