import APISchema
import ContractKit
import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine
import Testing

@testable import OpenAPIMock

/// The server-wide switches of document mode, as values through the responder: `--dynamic`
/// (every answer generated, seeded from a counter; `Prefer: dynamic=false` for the example),
/// an example that breaks its response schema (a `Petmock-Violations` field and the answer's
/// violations for the journal; with `--errors`, a 500 problem), an object under `text/*` (a
/// 500 problem), and the validating proxy's check of a live API's answer.
@Suite struct ServerSwitchTests {
    static let paths = """
        {"/items/{id}": {"get": {"parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
          "responses": {
            "200": {"description": "ok", "content": {"application/json": {
              "schema": {"type": "object", "required": ["id", "name"], "properties": {
                "id": {"type": "integer"}, "name": {"type": "string", "minLength": 3}}},
              "examples": {"good": {"value": {"id": 1, "name": "hammer"}}, "bad": {"value": {"id": "one", "name": "x"}}}}}},
            "404": {"description": "gone"}}}},
         "/bad": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {
              "schema": {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}}},
              "example": {"id": "seven"}}}}}}},
         "/text": {"get": {"responses": {"200": {"description": "ok", "content": {"text/plain": {
              "schema": {"type": "object", "properties": {"a": {"type": "integer"}}}, "example": {"a": 1}}}}}}},
         "/words": {"get": {"responses": {"200": {"description": "ok", "content": {"text/plain": {
              "schema": {"type": "string"}, "example": "plain words"}}}}}}}
        """

    static func responder(dynamic: Bool = false, strict: Bool = false) throws -> OpenAPIResponder {
        let text = #"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": \#(paths)}"#
        return OpenAPIResponder(
            contract: try OpenAPIReader().read(Array(text.utf8), source: "test.json"), dynamic: dynamic,
            strictResponses: strict)
    }

    static func reply(
        _ responder: OpenAPIResponder, _ target: String, headers: HTTPHeaders = [:]
    ) throws
        -> FallbackAnswer
    {
        try #require(responder.reply(to: HTTPServerRequest(method: .get, target: target, headers: headers)))
    }

    // MARK: text/*

    @Test func anObjectUnderTextIsA500ThatSaysWhy() throws {
        let answer = try Self.reply(Self.responder(), "/text")
        #expect(answer.response.response.status.code == 500)
        let problem = try JSONValue(parsing: answer.response.response.body)
        #expect(problem["type"] == .string("urn:petmock:problem:cannot-serialize"))
        #expect(problem["mediaType"] == .string("text/plain"))
        #expect(problem["detail"]?.stringValue?.contains("an object, which text/plain cannot carry") == true)
        let words = try Self.reply(Self.responder(), "/words")
        #expect(words.response.response.body == Array("plain words".utf8))
    }

    @Test func aGeneratedObjectUnderTextIsA500Too() throws {
        let answer = try Self.reply(Self.responder(dynamic: true), "/text")
        #expect(answer.response.response.status.code == 500)
    }

    // MARK: --dynamic

    @Test func dynamicAnswersAreGeneratedFromACounterNotTheExamples() throws {
        let responder = try Self.responder(dynamic: true)
        var seeds: [String] = []
        for _ in 0..<3 {
            let response = try Self.reply(responder, "/items/1").response.response
            #expect(response.status.code == 200)
            seeds.append(try #require(response.headers["Petmock-Seed"]))
            let body = try JSONValue(parsing: response.body)
            #expect(body["name"] != .string("hammer"))
        }
        #expect(seeds == ["1", "2", "3"])
        // Deterministic: another responder's first dynamic answer is this one's first.
        let again = try Self.responder(dynamic: true)
        let first = try Self.reply(again, "/items/1").response.response
        let replayed = try Self.reply(responder, "/items/1", headers: ["Prefer": "seed=1"]).response.response
        #expect(first.body == replayed.body)
    }

    @Test func preferDynamicFalseAsksForTheExampleAndAnExampleNameStillWins() throws {
        let responder = try Self.responder(dynamic: true)
        let fixed = try Self.reply(responder, "/items/1", headers: ["Prefer": "dynamic=false"]).response.response
        #expect(fixed.headers["Petmock-Seed"] == nil)
        #expect(try JSONValue(parsing: fixed.body)["name"] == .string("hammer"))
        let query = try Self.reply(responder, "/items/1?__dynamic=false").response.response
        #expect(try JSONValue(parsing: query.body)["name"] == .string("hammer"))
        let named = try Self.reply(responder, "/items/1", headers: ["Prefer": "example=good"]).response.response
        #expect(try JSONValue(parsing: named.body)["name"] == .string("hammer"))
    }

    @Test func withoutTheSwitchPreferDynamicTrueStillAsksForAGeneratedBody() throws {
        let responder = try Self.responder()
        let plain = try Self.reply(responder, "/items/1").response.response
        #expect(try JSONValue(parsing: plain.body)["name"] == .string("hammer"))
        let dynamic = try Self.reply(responder, "/items/1", headers: ["Prefer": "dynamic=true"]).response.response
        #expect(dynamic.headers["Petmock-Seed"] == "1")
    }

    // MARK: examples that break their schema

    @Test func anExampleThatBreaksItsSchemaIsSentWithItsViolations() throws {
        let responder = try Self.responder()
        #expect(responder.exampleViolations.count == 2, "found when the document loads: /bad's and 'bad'")
        #expect(
            responder.exampleProblems == [
                #"GET /items/{id} 200 application/json: its example 'bad' breaks the response schema: response.body.$.id: expected integer, found string "one" (and 1 more)"#,
                #"GET /bad 200 application/json: its example breaks the response schema: response.body.$.id: expected integer, found string "seven""#,
            ])
        let answer = try Self.reply(responder, "/bad")
        #expect(answer.response.response.status.code == 200)
        #expect(
            answer.response.response.headers["Petmock-Violations"]
                == "1; response.body.$.id: expected integer, found string \"seven\"")
        #expect(answer.responseViolations.map(\.location) == ["response.body.$.id"])
        #expect(answer.violations.isEmpty)
        let named = try Self.reply(responder, "/items/1", headers: ["Prefer": "example=bad"])
        #expect(Set(named.responseViolations.map(\.location)) == ["response.body.$.id", "response.body.$.name"])
        let good = try Self.reply(responder, "/items/1")
        #expect(good.responseViolations.isEmpty)
        #expect(good.response.response.headers["Petmock-Violations"] == nil)
    }

    @Test func withErrorsAnExampleThatBreaksItsSchemaIsA500() throws {
        let responder = try Self.responder(strict: true)
        let answer = try Self.reply(responder, "/bad")
        #expect(answer.response.response.status.code == 500)
        let problem = try JSONValue(parsing: answer.response.response.body)
        #expect(problem["type"] == .string("urn:petmock:problem:invalid-response"))
        #expect(problem["violations"]?[0]?["location"] == .string("response.body.$.id"))
        #expect(answer.responseViolations.count == 1)
        #expect(try Self.reply(responder, "/items/1").response.response.status.code == 200)
    }

    @Test func theFieldIsPrintableASCIIAndBounded() throws {
        let long = String(repeating: "é\u{1B}", count: 400)
        let field = OpenAPIResponder.violationsField([
            RequestViolation(location: "response.body", expected: "x", found: long, message: "m")
        ])
        #expect(field.unicodeScalars.allSatisfy { (0x20..<0x7F).contains($0.value) })
        #expect(field.utf8.count <= 303)
    }

    // MARK: the validating proxy's check

    static func live(_ status: Int, _ contentType: String?, _ body: String) -> HTTPResponse {
        var headers = HTTPHeaders()
        if let contentType { headers.add(name: "Content-Type", value: contentType) }
        return HTTPResponse(status: HTTPStatus(code: status), headers: headers, body: Array(body.utf8))
    }

    static func check(
        _ responder: OpenAPIResponder, _ response: HTTPResponse
    ) throws -> (
        response: HTTPResponse, violations: [RequestViolation]
    ) {
        let routing = responder.route(forwarding: HTTPServerRequest(method: .get, target: "/items/1"))
        guard case .forward(let operation, let check)? = routing else {
            Issue.record("expected the request to be passed on")
            throw CheckMissing()
        }
        #expect(operation == "GET /items/{id}")
        return check.check(response)
    }

    struct CheckMissing: Error {}

    @Test(arguments: [
        (200, "application/json", #"{"id": 1, "name": "hammer"}"#, [String]()),
        (
            200, "application/json; charset=utf-8", #"{"id": "1", "name": "ha"}"#,
            ["response.body.$.id", "response.body.$.name"]
        ),
        (200, "application/json", "{", ["response.body"]),
        (200, "text/html", "<p>", ["response.header.Content-Type"]),
        (200, nil, "", ["response.body"]),
        (500, "application/json", "{}", ["response.status"]),
        (404, nil, "", []),
    ])
    func aLiveAnswerIsCheckedAgainstItsOperation(
        _ status: Int, _ contentType: String?, _ body: String, _ locations: [String]
    ) throws {
        let (response, violations) = try Self.check(try Self.responder(), Self.live(status, contentType, body))
        #expect(Set(violations.map(\.location)) == Set(locations))
        #expect(response.status.code == status)
        #expect((response.headers["Petmock-Violations"] != nil) == !locations.isEmpty)
    }

    @Test func withErrorsALiveAnswerThatBreaksTheDocumentIsA502() throws {
        let (response, violations) = try Self.check(
            try Self.responder(strict: true), Self.live(200, "application/json", #"{"id": "x", "name": "abc"}"#))
        #expect(violations.map(\.location) == ["response.body.$.id"])
        #expect(response.status.code == 502)
        let problem = try JSONValue(parsing: response.body)
        #expect(problem["type"] == .string("urn:petmock:problem:invalid-response"))
        #expect(problem["upstreamStatus"] == .int(200))
    }

    @Test func aLiveBodyAboveTheLimitIsReportedAsNotChecked() throws {
        let body = #"{"id": 1, "name": ""# + String(repeating: "a", count: OpenAPIResponder.maximumCheckedBody) + #""}"#
        let (_, violations) = try Self.check(try Self.responder(), Self.live(200, "application/json", body))
        #expect(violations.map(\.expected) == ["at most \(OpenAPIResponder.maximumCheckedBody) bytes to check"])
    }

    @Test func refusalsAreAnsweredHereAndUndocumentedPathsPassedOnUnchecked() throws {
        let responder = try Self.responder()
        let invalid = responder.route(forwarding: HTTPServerRequest(method: .get, target: "/items/abc"))
        guard case .answer(let answer)? = invalid else {
            Issue.record("expected the invalid request to be refused here")
            return
        }
        #expect(answer.response.response.status.code == 400)
        #expect(responder.route(forwarding: HTTPServerRequest(method: .get, target: "/elsewhere")) == nil)
        #expect(responder.route(forwarding: HTTPServerRequest(method: .post, target: "/items/1")) == nil)
    }
}
