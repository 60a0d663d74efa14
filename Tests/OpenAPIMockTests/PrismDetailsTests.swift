import APISchema
import ContractKit
import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine
import Testing

@testable import OpenAPIMock

/// The points where a document is served as Prism serves it, as values through the responder
/// (no socket): routing (HEAD-only paths, percent-encoded paths, an empty path parameter), the
/// answer chosen (`Prefer` and its query forms, ranges and `default`, media type order),
/// petmock's own answers as problem documents, and refusals (a body where none is documented,
/// the operation's own 400 or 422).
@Suite struct PrismDetailsTests {
    /// A document of `paths` (JSON text of the `paths` object).
    static func responder(_ paths: String, validates: Bool = true) throws -> OpenAPIResponder {
        let text = """
            {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": \(paths)}
            """
        return OpenAPIResponder(
            contract: try OpenAPIReader().read(Array(text.utf8), source: "test.json"), validatesRequests: validates)
    }

    static func reply(
        _ responder: OpenAPIResponder, _ target: String, method: HTTPMethod = .get, headers: HTTPHeaders = [:],
        body: String = ""
    ) throws -> FallbackAnswer {
        let request = HTTPServerRequest(method: method, target: target, headers: headers, body: Array(body.utf8))
        return try #require(responder.reply(to: request))
    }

    static func json(_ answer: FallbackAnswer) throws -> JSONValue {
        try JSONValue(parsing: answer.response.response.body)
    }

    static func ok(_ example: String) -> String {
        #"{"200": {"description": "ok", "content": {"application/json": {"example": "\#(example)"}}}}"#
    }

    // MARK: Routing

    @Test func aPathWhoseOnlyOperationIsHeadAnswersItsHead() throws {
        let responder = try Self.responder(
            #"{"/ping": {"head": {"responses": {"204": {"description": "up"}}}}}"#)
        let head = try Self.reply(responder, "/ping", method: .head)
        #expect(head.response.response.status.code == 204)
        #expect(head.operation == "HEAD /ping")
        let get = try Self.reply(responder, "/ping")
        #expect(get.response.response.status.code == 405)
        #expect(get.response.response.headers.first(name: "Allow") == "HEAD")
    }

    @Test func aHeadIsAnsweredByItsGetWhenThePathHasNoHead() throws {
        let responder = try Self.responder(#"{"/items": {"get": {"responses": \#(Self.ok("list"))}}}"#)
        let head = try Self.reply(responder, "/items", method: .head)
        #expect(head.response.response.status.code == 200)
        #expect(head.operation == "GET /items")
    }

    @Test(
        arguments: [
            ("/test%20path", 200, nil),
            ("/test path", 200, nil),
            ("/files/a%2Fb", 200, "a/b"),
            ("/files/a%2Fb/raw", 200, "a/b"),
            ("/files/a/b/raw", 404, nil),
        ] as [(String, Int, String?)])
    func aPercentEncodedPathIsDecodedBeforeRouting(target: String, status: Int, name: String?) throws {
        let responder = try Self.responder(
            #"""
            {"/test path": {"get": {"responses": \#(Self.ok("spaced"))}},
             "/files/{name}": {"get": {"parameters": [{"name": "name", "in": "path", "required": true,
               "schema": {"type": "string", "enum": ["a/b"]}}], "responses": \#(Self.ok("file"))}},
             "/files/{name}/raw": {"get": {"parameters": [{"name": "name", "in": "path", "required": true,
               "schema": {"type": "string", "enum": ["a/b"]}}], "responses": \#(Self.ok("raw"))}}}
            """#)
        let answer = try Self.reply(responder, target)
        #expect(answer.response.response.status.code == status)
        if name != nil { #expect(answer.violations.isEmpty) }
    }

    @Test func anEmptyPathParameterIsA400NamingIt() throws {
        let responder = try Self.responder(
            #"{"/path/{param}/foo": {"get": {"responses": \#(Self.ok("foo"))}}}"#)
        let answer = try Self.reply(responder, "/path//foo")
        #expect(answer.response.response.status.code == 400)
        #expect(answer.response.response.headers.first(name: "Content-Type") == "application/problem+json")
        #expect(answer.operation == "GET /path/{param}/foo")
        #expect(answer.violations.map(\.location) == ["path.param"])
        #expect(try Self.json(answer)["violations"]?[0]?["location"] == "path.param")
        let other = try Self.reply(responder, "/path//bar")
        #expect(other.response.response.status.code == 404)
    }

    // MARK: Choosing the answer

    static let statuses = #"""
        {"/todos": {"get": {"parameters": [{"name": "limit", "in": "query", "schema": {"type": "integer"}}],
          "responses": {
            "200": {"description": "ok", "content": {"application/json": {"examples": {
              "first": {"value": "one"}, "second": {"value": "two"}}}}},
            "4XX": {"description": "client", "content": {"application/json": {"example": "range"}}},
            "default": {"description": "other", "content": {"application/json": {"example": "fallback"}}}}}}}
        """#

    @Test(
        arguments: [
            ("/todos", [:], 200, "one"),
            ("/todos", ["Prefer": "code=404"], 404, "range"),
            ("/todos?__code=404", [:], 404, "range"),
            ("/todos?__code=503", [:], 503, "fallback"),
            ("/todos", ["Prefer": "code=201"], 201, "fallback"),
            ("/todos?__example=second", [:], 200, "two"),
            ("/todos?__code=404", ["Prefer": "code=200"], 200, "one"),
            ("/todos?limit=2&__code=200&__example=second", [:], 200, "two"),
        ] as [(String, HTTPHeaders, Int, String)])
    func aStatusAskedForFallsBackToItsRangeThenDefault(
        target: String, headers: HTTPHeaders, status: Int, body: String
    ) throws {
        let answer = try Self.reply(try Self.responder(Self.statuses), target, headers: headers)
        #expect(answer.violations.isEmpty)
        #expect(answer.response.response.status.code == status)
        #expect(try Self.json(answer) == .string(body))
    }

    @Test func aDynamicAnswerIsAskedForByQueryToo() throws {
        let responder = try Self.responder(
            #"""
            {"/n": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {
              "schema": {"type": "integer", "minimum": 5, "maximum": 5}, "example": 1}}}}}}}
            """#)
        #expect(try Self.json(try Self.reply(responder, "/n")) == .int(1))
        let dynamic = try Self.reply(responder, "/n?__dynamic=true")
        #expect(try Self.json(dynamic) == .int(5))
        #expect(dynamic.response.response.headers.first(name: "Petmock-Seed") != nil)
    }

    @Test(
        arguments: [
            (["Prefer": "code=418"], "/todos"), ([:], "/todos?__code=418"), (["Prefer": "example=third"], "/todos"),
            ([:], "/todos?__example=third"), (["Prefer": "code=1000"], "/todos"),
        ] as [(HTTPHeaders, String)])
    func anUnsatisfiablePreferenceIsA404Problem(headers: HTTPHeaders, target: String) throws {
        let responder = try Self.responder(#"{"/todos": {"get": {"responses": \#(Self.ok("ok"))}}}"#)
        let answer = try Self.reply(responder, target, headers: headers)
        #expect(answer.response.response.status.code == 404)
        #expect(answer.response.response.headers.first(name: "Content-Type") == "application/problem+json")
        let problem = try Self.json(answer)
        #expect(problem["status"] == .int(404))
        #expect(problem["detail"]?.stringValue?.contains("GET /todos") == true)
    }

    @Test func withNo2xxDefaultIsAnsweredAs200() throws {
        let responder = try Self.responder(
            #"""
            {"/todos": {"get": {"responses": {
              "400": {"description": "bad", "content": {"application/json": {"example": "bad"}}},
              "default": {"description": "other", "content": {"application/json": {"example": "test"}}}}}}}
            """#)
        let answer = try Self.reply(responder, "/todos")
        #expect(answer.response.response.status.code == 200)
        #expect(try Self.json(answer) == .string("test"))
    }

    @Test(
        arguments: [
            (nil, "text/plain"), ("*/*", "text/plain"), ("application/json", "application/json"),
        ] as [(String?, String)])
    func withoutAcceptTheFirstDocumentedMediaTypeIsAnswered(accept: String?, mediaType: String) throws {
        let responder = try Self.responder(
            #"""
            {"/t": {"get": {"responses": {"200": {"description": "ok", "content": {
              "text/plain": {"example": "plain"}, "application/json": {"example": "json"}}}}}}}
            """#)
        var headers = HTTPHeaders()
        if let accept { headers.add(name: "Accept", value: accept) }
        let answer = try Self.reply(responder, "/t", headers: headers)
        #expect(answer.response.response.headers.first(name: "Content-Type") == mediaType)
    }

    // MARK: petmock's own answers

    @Test(
        arguments: [
            ("/items/7/x", HTTPMethod.get, [:], 404), ("/items", .delete, [:], 405),
            ("/items", .get, ["Accept": "image/png"], 406), ("/broken", .get, [:], 500),
        ] as [(String, HTTPMethod, HTTPHeaders, Int)])
    func petmocksOwnAnswersAreProblemDocuments(
        target: String, method: HTTPMethod, headers: HTTPHeaders, status: Int
    )
        throws
    {
        let responder = try Self.responder(
            #"""
            {"/items": {"get": {"responses": \#(Self.ok("list"))}},
             "/broken": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {
               "schema": {"type": "string", "minLength": 5, "maxLength": 2}}}}}}}}
            """#)
        let answer = try Self.reply(responder, target, method: method, headers: headers)
        let response = answer.response.response
        #expect(response.status.code == status)
        #expect(response.headers.first(name: "Content-Type") == "application/problem+json")
        let problem = try Self.json(answer)
        #expect(problem["status"] == .int(Int64(status)))
        #expect(problem["type"]?.stringValue?.hasPrefix("urn:petmock:problem:") == true)
        #expect(problem["title"]?.stringValue?.isEmpty == false)
        #expect(problem["detail"]?.stringValue?.isEmpty == false)
        if status == 404 { #expect(problem["detail"]?.stringValue?.contains("closest: GET /items") == true) }
        if status == 405 { #expect(response.headers.first(name: "Allow") == "GET") }
    }

    // MARK: Refusals

    @Test(
        arguments: [
            ("x", [:], 415), ("", [:], 200), ("{}", ["Content-Type": "application/json"], 415),
        ] as [(String, HTTPHeaders, Int)])
    func aBodyToAnOperationWithoutRequestBodyIs415(body: String, headers: HTTPHeaders, status: Int) throws {
        let responder = try Self.responder(#"{"/items": {"post": {"responses": \#(Self.ok("made"))}}}"#)
        let answer = try Self.reply(responder, "/items", method: .post, headers: headers, body: body)
        #expect(answer.response.response.status.code == status)
        if status == 415 {
            #expect(answer.violations.map(\.location) == ["body"])
            #expect(answer.violations.first?.expected == "no body")
        }
        let unchecked = try Self.responder(
            #"{"/items": {"post": {"responses": \#(Self.ok("made"))}}}"#, validates: false)
        #expect(
            try Self.reply(unchecked, "/items", method: .post, headers: headers, body: body).response.response.status
                .code == 200)
    }

    static let refused = #"""
        {"/a": {"get": {"parameters": [{"name": "n", "in": "query", "required": true, "schema": {"type": "integer"}}],
          "responses": {"200": {"description": "ok"},
            "400": {"description": "bad", "content": {"application/json": {"example": {"own": 400}}}}}}},
         "/b": {"get": {"parameters": [{"name": "n", "in": "query", "required": true, "schema": {"type": "integer"}}],
          "responses": {"200": {"description": "ok"},
            "422": {"description": "bad", "content": {"application/json": {"example": {"own": 422}}}}}}},
         "/c": {"get": {"parameters": [{"name": "n", "in": "query", "required": true, "schema": {"type": "integer"}}],
          "responses": {"200": {"description": "ok"},
            "default": {"description": "err", "content": {"application/json": {
              "schema": {"type": "object", "required": ["code"], "properties": {"code": {"type": "integer"}}}}}}}}},
         "/d": {"get": {"parameters": [{"name": "n", "in": "query", "required": true, "schema": {"type": "integer"}}],
          "responses": {"200": {"description": "ok"}}}},
         "/e": {"post": {"responses": {"200": {"description": "ok"},
            "4XX": {"description": "bad", "content": {"application/json": {"example": {"own": "4XX"}}}}}}},
         "/f": {"get": {"parameters": [{"name": "n", "in": "query", "required": true, "schema": {"type": "integer"}}],
          "responses": {"200": {"description": "ok"}, "422": {"description": "no body"}}}},
         "/g": {"get": {"parameters": [{"name": "n", "in": "query", "required": true, "schema": {"type": "integer"}}],
          "responses": {"200": {"description": "ok"},
            "400": {"description": "bad", "content": {"application/json": {"example": {"own": 400}}}},
            "422": {"description": "bad", "content": {"application/json": {"example": {"own": 422}}}}}}}}
        """#

    @Test(
        arguments: [
            ("/a", HTTPMethod.get, 400, "own", JSONValue.int(400)),
            ("/b", .get, 422, "own", .int(422)),
            ("/c", .get, 400, "code", nil),
            ("/d", .get, 400, "violations", nil),
            ("/e", .post, 415, "own", .string("4XX")),
            ("/f", .get, 400, "violations", nil),
            ("/g", .get, 400, "own", .int(400)),
        ] as [(String, HTTPMethod, Int, String, JSONValue?)])
    func aRefusalIsTheOperationsOwnAnswerWhenItDocumentsOne(
        path: String, method: HTTPMethod, status: Int, member: String, value: JSONValue?
    ) throws {
        let answer = try Self.reply(
            try Self.responder(Self.refused), path + "?n=x", method: method, body: method == .post ? "x" : "")
        #expect(answer.response.response.status.code == status)
        #expect(answer.violations.isEmpty == false)
        let body = try Self.json(answer)
        #expect(body[member] != nil)
        if let value { #expect(body[member] == value) }
        let field = answer.response.response.headers.first(name: "Petmock-Violations")
        if member == "violations" {
            #expect(field == nil)
        } else {
            #expect(field?.hasPrefix("1; \(answer.violations[0].location): expected") == true)
        }
    }

    /// The example a refused request names beside the refusal's status is the one its
    /// documented answer sends, and one that answer lacks is the 404 listing its examples; an
    /// example named beside another status, or alone, is one of another answer's.
    @Test(
        arguments: [
            ("?__code=422&__example=empty", 422, "empty"), ("?__code=422&__example=short", 422, "short"),
            ("", 422, "short"), ("?__code=422&__example=missing", 404, nil),
            ("?__code=201&__example=empty", 422, "short"),
            ("?__example=empty", 422, "short"),
        ] as [(String, Int, String?)])
    func aRefusalsDocumentedAnswerSendsTheExampleNamed(query: String, status: Int, message: String?) throws {
        let responder = try Self.responder(
            #"""
            {"/cats": {"post": {
              "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object",
                "properties": {"name": {"type": "string", "maxLength": 5}}}}}},
              "responses": {"201": {"description": "ok"},
                "422": {"description": "bad", "content": {"application/json": {"examples": {
                  "short": {"value": {"message": "short"}}, "empty": {"value": {"message": "empty"}}}}}}}}}}
            """#)
        let answer = try Self.reply(
            responder, "/cats" + query, method: .post, headers: ["Content-Type": "application/json"],
            body: #"{"name": "very_long_name"}"#)
        #expect(answer.response.response.status.code == status)
        #expect(answer.violations.isEmpty == false)
        if let message {
            #expect(try Self.json(answer)["message"] == .string(message))
        } else {
            #expect(try Self.json(answer)["detail"]?.stringValue?.contains("has no example 'missing'") == true)
        }
    }

    @Test func theViolationsFieldIsPrintableASCII() {
        let violation = RequestViolation(
            location: "query.n", expected: "integer", found: "'caf\u{E9}\u{1B}'", message: "m")
        #expect(
            OpenAPIResponder.violationsField([violation]) == #"1; query.n: expected integer, found 'caf\u{E9}\u{1B}'"#)
    }
}
