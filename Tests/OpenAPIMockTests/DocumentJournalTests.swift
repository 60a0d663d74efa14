import APISchema
import ContractKit
import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine
import OpenAPIMock
import StubFormat
import StubServerKit
import Testing

/// What the journal, the admin API and the dashboard show of a document's answers: the
/// operation, the request's violations, and the document's operations beside the mappings.
@Suite struct DocumentJournalTests {
    static func server(validates: Bool = true, variant: String? = nil) throws -> StubServer {
        var configuration = StubServerConfiguration(port: 0, eventLoopCount: 1, variant: variant)
        configuration.fallback = OpenAPIResponder(
            contract: try RequestValidationTests.contract(), validatesRequests: validates)
        return try StubServer(stubsDirectory: nil, mappings: [], configuration: configuration)
    }

    static func response(
        _ server: StubServer, _ target: String, method: HTTPMethod = .get, headers: HTTPHeaders = [:]
    ) throws -> HTTPResponse {
        switch server.reply(to: HTTPServerRequest(method: method, target: target, headers: headers)) {
        case .prepared(let prepared): return prepared.response
        case .response(let response): return response
        case .delayed(.prepared(let prepared), _): return prepared.response
        default: throw DocumentServingTests.DocumentAnswerMissing()
        }
    }

    static func json(_ server: StubServer, _ target: String) throws -> JSONValue {
        try JSONValue(parsing: try response(server, target).body)
    }

    @Test func theJournalKeepsTheOperationAndTheViolations() throws {
        let server = try Self.server()
        #expect(try Self.response(server, "/orders?limit=abc").status.code == 400)
        #expect(try Self.response(server, "/orders?limit=5").status.code == 200)
        let requests = server.admin.requests()
        let refused = try #require(requests.first { $0.url == "/orders?limit=abc" })
        #expect(refused.documentOperation == "GET /orders")
        #expect(refused.violations.map(\.location) == ["query.limit"])
        #expect(refused.responseStatus == 400)
        let valid = try #require(requests.first { $0.url == "/orders?limit=5" })
        #expect(valid.documentOperation == "GET /orders")
        #expect(valid.violations.isEmpty)
    }

    @Test func theAdminJSONOfRequestsShowsThem() throws {
        let server = try Self.server()
        _ = try Self.response(server, "/orders?limit=abc")
        _ = try Self.response(server, "/elsewhere")
        let events = try #require(try Self.json(server, "/__admin/requests")["requests"]?.arrayValue)
        let refused = try #require(events.first { $0["request"]?["url"] == .string("/orders?limit=abc") })
        let document = try #require(refused["petmockDocument"])
        #expect(document["operation"] == .string("GET /orders"))
        let violation = try #require(document["violations"]?.arrayValue?.first)
        #expect(violation["location"] == .string("query.limit"))
        #expect(violation["found"]?.stringValue?.contains("abc") == true)
        #expect(violation["expected"]?.stringValue?.contains("integer") == true)
        #expect(refused["petmockStubLabel"] == .string("document: GET /orders"))
        // A path the document does not have: no operation answered.
        let other = try #require(events.first { $0["request"]?["url"] == .string("/elsewhere") })
        #expect(other["petmockDocument"] == nil)
    }

    @Test func aDriftVariantLeavesTheProblemDocumentAlone() throws {
        let server = try Self.server(variant: "missing:status")
        let problem = try Self.json(server, "/orders?limit=abc")
        #expect(problem["status"] == .int(400))
        #expect(server.admin.requests().first?.violations.count == 1)
    }

    @Test func withValidationOffNothingIsRefused() throws {
        let server = try Self.server(validates: false)
        #expect(try Self.response(server, "/orders?limit=abc").status.code == 200)
        let logged = try #require(server.admin.requests().first)
        #expect(logged.documentOperation == "GET /orders")
        #expect(logged.violations.isEmpty)
    }

    @Test func theAdminAPIListsTheDocumentsOperations() throws {
        let server = try Self.server()
        #expect(server.admin.documentOperations().count == 4)
        let operations = try #require(try Self.json(server, "/__admin/petmock/operations")["operations"]?.arrayValue)
        let first = try #require(operations.first)
        #expect(first["method"] == .string("GET"))
        #expect(first["path"] == .string("/orders"))
        #expect(first["name"] == .string("GET /orders"))
        #expect(first["operationId"] == .string("listOrders"))
        #expect(first["statuses"] == .array([.string("200")]))
        #expect(
            operations.map { $0["name"] } == [
                .string("GET /orders"), .string("POST /orders"), .string("GET /orders/{id}"),
                .string("PUT /orders/{id}"),
            ])
    }

    @Test func withoutADocumentTheListIsEmpty() throws {
        let server = try StubServer(
            stubsDirectory: nil, mappings: [], configuration: StubServerConfiguration(port: 0, eventLoopCount: 1))
        #expect(try Self.json(server, "/__admin/petmock/operations")["operations"] == .array([]))
    }

    @Test func theDashboardShowsOperationsAndViolations() throws {
        let server = try Self.server()
        let page = String(decoding: try Self.response(server, "/__admin/ui").body, as: UTF8.self)
        #expect(page.contains(#"id="operations""#) && page.contains(#"id="operation-rows""#))
        let script = String(decoding: try Self.response(server, "/__admin/ui/app.js").body, as: UTF8.self)
        #expect(script.contains(#"api("GET", "/petmock/operations")"#))
        #expect(script.contains("event.petmockDocument"))
        #expect(script.contains("function showDocumentAnswer"))
        // The answer's violations (what the journal keeps as petmockDocument.responseViolations):
        // counted on the journal row, listed in the request's detail.
        #expect(script.contains("document.responseViolations"))
        #expect(script.contains(#"tableOf("response-violations""#))
        #expect(script.contains(#""answer " + answer"#))
    }
}

/// `GET /__admin/petmock/variants` lists a document's answers beside the stubs', as
/// `petmock variants --openapi` does.
@Suite struct DocumentAdminVariantsTests {
    @Test func theAdminVariantsListTheDocumentsOperations() throws {
        let server = try DocumentJournalTests.server()
        let catalog = try DocumentJournalTests.json(server, "/__admin/petmock/variants")
        guard case .array(let operations)? = catalog.objectValue?["operations"] else {
            Issue.record("no operations in \(catalog.serialized())")
            return
        }
        let names = operations.compactMap { $0.objectValue?["operation"]?.stringValue }
        #expect(names.contains("GET /orders"))
        let listed = server.admin.variants()
        #expect(listed.operations.map(\.operation) == names)
        #expect(listed.operations.contains { !$0.fields.isEmpty })
    }
}
