import APISchema
import ContractKit
import Foundation
import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine
import OpenAPIMock
import Testing

/// Requests checked against their operations, as values: each kind of violation, the status
/// (400, 415, 422), the problem document, and validation turned off.
@Suite struct RequestValidationTests {
    static func contract() throws -> Contract {
        try OpenAPIReader().read(file: OpenAPIResponderTests.folder.appendingPathComponent("orders.yaml").path)
    }

    static func reply(
        _ target: String, method: HTTPMethod = .get, headers: HTTPHeaders = [:], body: String = "",
        validates: Bool = true
    ) throws -> FallbackAnswer {
        let responder = OpenAPIResponder(contract: try contract(), validatesRequests: validates)
        let request = HTTPServerRequest(method: method, target: target, headers: headers, body: Array(body.utf8))
        return try #require(responder.reply(to: request))
    }

    /// The violations' locations, in order.
    static func locations(_ answer: FallbackAnswer) -> [String] {
        answer.violations.map(\.location)
    }

    @Test func aValidRequestIsAnsweredAsDocumented() throws {
        let answer = try Self.reply(
            "/orders?limit=10&status=paid&tags=ab&tags=cd&ids=1,2&express=true",
            headers: ["X-Trace": "0123abcd", "Cookie": "theme=dark; session=s1"])
        #expect(answer.violations.isEmpty)
        #expect(answer.response.response.status.code == 200)
        #expect(answer.operation == "GET /orders")
    }

    struct ParameterCase: Sendable, CustomTestStringConvertible {
        let target: String
        var headers: HTTPHeaders = [:]
        let location: String
        let expected: String
        var testDescription: String { "\(location) \(target)" }
    }

    static let parameterCases: [ParameterCase] = [
        ParameterCase(target: "/orders", location: "query.limit", expected: "a value"),
        ParameterCase(target: "/orders?limit=abc", location: "query.limit", expected: "integer"),
        ParameterCase(target: "/orders?limit=0", location: "query.limit", expected: ">= 1"),
        ParameterCase(target: "/orders?limit=101", location: "query.limit", expected: "<= 100"),
        ParameterCase(target: "/orders?limit=1.5", location: "query.limit", expected: "integer"),
        ParameterCase(target: "/orders?limit=%2B5", location: "query.limit", expected: "integer"),
        ParameterCase(target: "/orders?limit=1&status=lost", location: "query.status", expected: "open"),
        ParameterCase(target: "/orders?limit=1&tags=a", location: "query.tags[0]", expected: "2"),
        ParameterCase(target: "/orders?limit=1&tags=ab&tags=cd&tags=ef&tags=gh", location: "query.tags", expected: "3"),
        ParameterCase(target: "/orders?limit=1&ids=1,x", location: "query.ids[1]", expected: "integer"),
        ParameterCase(target: "/orders?limit=1&express=yes", location: "query.express", expected: "boolean"),
        ParameterCase(
            target: "/orders?limit=1", headers: ["X-Trace": "xyz"], location: "header.X-Trace", expected: "[0-9a-f]{8}"),
        ParameterCase(
            target: "/orders?limit=1", headers: ["Cookie": "session=much-too-long"], location: "cookie.session",
            expected: "8"),
        ParameterCase(target: "/orders/0", location: "path.id", expected: ">= 1"),
        ParameterCase(target: "/orders/seven", location: "path.id", expected: "integer"),
        ParameterCase(
            target: "/orders/7", headers: ["X-Versions": "1, two"], location: "header.X-Versions[1]",
            expected: "integer"),
    ]

    @Test(arguments: parameterCases) func aParameterViolationIsA400(_ row: ParameterCase) throws {
        let answer = try Self.reply(row.target, headers: row.headers)
        #expect(answer.response.response.status.code == 400)
        let violation = try #require(answer.violations.first)
        #expect(Self.locations(answer) == [row.location])
        #expect(violation.expected.contains(row.expected), "\(violation)")
    }

    @Test func valuesArePercentDecoded() throws {
        #expect(try Self.reply("/orders?limit=%35&status=pa%69d").violations.isEmpty)
        let path = try Self.reply("/orders/%37")
        #expect(path.violations.isEmpty)
        #expect(try Self.reply("/orders/o-%31", method: .put).violations.isEmpty)
        let refused = try Self.reply("/orders/o%2Dx", method: .put)
        #expect(Self.locations(refused) == ["path.id"])
        #expect(refused.violations.first?.found.contains("o-x") == true)
    }

    @Test func aHeadersListItemsMayHaveSpacesAround() throws {
        #expect(try Self.reply("/orders/7", headers: ["X-Versions": "1, 2 ,3"]).violations.isEmpty)
    }

    @Test func headerParametersNamedAcceptAreIgnored() throws {
        #expect(try Self.reply("/orders?limit=1", headers: ["Accept": "application/json"]).violations.isEmpty)
    }

    @Test func everyViolationIsListed() throws {
        let answer = try Self.reply("/orders?limit=abc&status=lost", headers: ["X-Trace": "no"])
        #expect(Self.locations(answer) == ["header.X-Trace", "query.limit", "query.status"])
    }

    @Test func aBodyThatBreaksItsSchemaIsA422() throws {
        let answer = try Self.reply(
            "/orders", method: .post, headers: ["Content-Type": "application/json"], body: #"{"name": "ab"}"#)
        #expect(answer.response.response.status.code == 422)
        #expect(Set(Self.locations(answer)) == ["body.$.name", "body.$.quantity"])
    }

    @Test func aBodyThatIsNotJSONIsA400() throws {
        let answer = try Self.reply(
            "/orders", method: .post, headers: ["Content-Type": "application/json"], body: #"{"name": "#)
        #expect(answer.response.response.status.code == 400)
        #expect(Self.locations(answer) == ["body"])
        #expect(answer.violations.first?.expected == "well-formed JSON")
    }

    @Test func aMissingRequiredBodyIsA400() throws {
        let answer = try Self.reply("/orders", method: .post, headers: ["Content-Type": "application/json"])
        #expect(answer.response.response.status.code == 400)
        #expect(Self.locations(answer) == ["body"])
        // An optional body may be left out.
        #expect(try Self.reply("/orders/o-1", method: .put).violations.isEmpty)
    }

    @Test func anUndocumentedMediaTypeIsA415() throws {
        let answer = try Self.reply("/orders", method: .post, headers: ["Content-Type": "text/plain"], body: "hello")
        #expect(answer.response.response.status.code == 415)
        #expect(Self.locations(answer) == ["header.Content-Type"])
        #expect(answer.violations.first?.found == "'text/plain'")
        let untyped = try Self.reply("/orders", method: .post, body: #"{"name": "abc", "quantity": 1}"#)
        #expect(untyped.response.response.status.code == 415)
        #expect(untyped.violations.first?.found == "nothing")
    }

    @Test func aMediaTypeIsComparedWithoutItsParameters() throws {
        let answer = try Self.reply(
            "/orders", method: .post, headers: ["Content-Type": "Application/JSON; charset=utf-8"],
            body: #"{"name": "abc", "quantity": 2}"#)
        #expect(answer.violations.isEmpty)
        #expect(answer.response.response.status.code == 201)
    }

    @Test func aFormBodyIsReadAsItsSchemaSays() throws {
        let form: HTTPHeaders = ["Content-Type": "application/x-www-form-urlencoded"]
        let valid = try Self.reply(
            "/orders", method: .post, headers: form, body: "name=a+pen&quantity=2&notes=x&notes=y")
        #expect(valid.violations.isEmpty)
        let invalid = try Self.reply("/orders", method: .post, headers: form, body: "name=pen&quantity=none")
        #expect(invalid.response.response.status.code == 422)
        #expect(Self.locations(invalid) == ["body.$.quantity"])
    }

    @Test func parameterAndBodyViolationsTogetherAreA400() throws {
        let answer = try Self.reply(
            "/orders/x", method: .put, headers: ["Content-Type": "application/json"], body: #"{"name": 1}"#)
        #expect(answer.response.response.status.code == 400)
        #expect(Self.locations(answer).first == "path.id")
        #expect(Self.locations(answer).contains("body.$.name"))
    }

    @Test func theRefusalIsAProblemDocument() throws {
        let answer = try Self.reply("/orders?limit=abc")
        let response = answer.response.response
        #expect(response.headers.first(name: "Content-Type") == "application/problem+json")
        let problem = try JSONValue(parsing: response.body)
        #expect(problem["type"] == .string("urn:petmock:problem:invalid-request"))
        #expect(problem["title"] == .string("Invalid request"))
        #expect(problem["status"] == .int(400))
        #expect(problem["operation"] == .string("GET /orders"))
        let detail = try #require(problem["detail"]?.stringValue)
        #expect(detail.contains("GET /orders") && detail.contains("query.limit"), "\(detail)")
        let violation = try #require(problem["violations"]?.arrayValue?.first)
        #expect(violation["location"] == .string("query.limit"))
        #expect(violation["expected"]?.stringValue?.contains("integer") == true)
        #expect(violation["found"]?.stringValue?.contains("abc") == true)
        #expect(violation["message"]?.stringValue?.isEmpty == false)
        let invalidBody = try Self.reply(
            "/orders", method: .post, headers: ["Content-Type": "application/json"], body: "{}")
        let bodyProblem = try JSONValue(parsing: invalidBody.response.response.body)
        #expect(bodyProblem["type"] == .string("urn:petmock:problem:invalid-body"))
        #expect(bodyProblem["status"] == .int(422))
        #expect(bodyProblem["detail"]?.stringValue?.hasSuffix("(and 1 more)") == true)
    }

    @Test func whatWasFoundIsEscapedAndCutShort() throws {
        let long = String(repeating: "z", count: 500)
        let answer = try Self.reply("/orders?limit=1&status=%1B%5B31m%0A" + long)
        let found = try #require(answer.violations.first?.found)
        #expect(!found.unicodeScalars.contains { $0.value < 0x20 }, "\(found)")
        #expect(found.contains("\\u001b[31m\\n"), "\(found)")
        #expect(found.count < 120, "\(found.count)")
    }

    @Test func violationsAreBounded() throws {
        let many = (0..<400).map { _ in "tags=a" }.joined(separator: "&")
        let answer = try Self.reply("/orders?limit=1&" + many)
        #expect(answer.response.response.status.code == 400)
        #expect(answer.violations.count <= 50)
    }

    @Test func validationOffAnswersEveryRequest() throws {
        let answer = try Self.reply("/orders?limit=abc", validates: false)
        #expect(answer.violations.isEmpty)
        #expect(answer.response.response.status.code == 200)
        #expect(answer.operation == "GET /orders")
        let body = try Self.reply("/orders", method: .post, headers: ["Content-Type": "text/plain"], validates: false)
        #expect(body.response.response.status.code == 201)
        #expect(!OpenAPIResponder(contract: try Self.contract(), validatesRequests: false).validatesRequests)
    }

    @Test func theResponderListsItsOperations() throws {
        let responder = OpenAPIResponder(contract: try Self.contract(), basePath: "/api")
        let operations = responder.operations
        #expect(operations.map(\.name) == ["GET /orders", "POST /orders", "GET /orders/{id}", "PUT /orders/{id}"])
        let first = try #require(operations.first)
        #expect(first.path == "/api/orders")
        #expect(first.operationId == "listOrders")
        #expect(first.summary == "Lists the orders")
        #expect(operations[1].statuses == ["201", "422"])
    }

    @Test func styleAndExplodeAreReadAndWritten() throws {
        let contract = try Self.contract()
        let ids = try #require(contract.operation(named: "GET /orders")?.parameters.first { $0.name == "ids" })
        #expect(ids.style == "form")
        #expect(ids.explode == false)
        let written = OpenAPIWriter().document(contract)
        let again = try OpenAPIReader().read(written, source: "again")
        #expect(again.operation(named: "GET /orders")?.parameters.first { $0.name == "ids" }?.explode == false)
    }
}
