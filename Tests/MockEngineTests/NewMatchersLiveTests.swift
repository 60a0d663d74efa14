import HTTPCore
import JSONKit
import MockEngine
import StubFormat
import StubServerKit
import TestSupport
import Testing

/// Method `oneOf`, the date-time matchers, `multipartPatterns` and `matchesJsonSchema` from a
/// stub file and from the admin API, on the wire; and the default stub mapping an unmatched
/// request's serve event names.
@Suite struct NewMatchersLiveTests {
    static let request =
        #"{"method": {"oneOf": ["PUT", "POST"]}, "urlPath": "/orders", "headers": {"X-Sent": {"before": "2030-01-01T00:00:00Z", "actualFormat": "dd/MM/yyyy"}}, "multipartPatterns": [{"name": "order", "bodyPatterns": [{"matchesJsonSchema": {"type": "object", "required": ["quantity"], "properties": {"quantity": {"type": "integer", "minimum": 1}}}}]}]}"#

    static func multipart(quantity: String) -> String {
        "--b\r\nContent-Disposition: form-data; name=\"order\"\r\nContent-Type: application/json\r\n\r\n"
            + "{\"quantity\": \(quantity)}\r\n--b--\r\n"
    }

    static func send(_ port: Int, _ method: String, date: String, quantity: String) throws -> Int {
        try fetch(
            port, method, "/orders",
            headers: [("X-Sent", date), ("Content-Type", "multipart/form-data; boundary=b")],
            body: multipart(quantity: quantity)
        ).status
    }

    static func checkAnswers(_ port: Int) throws {
        #expect(try send(port, "POST", date: "14/06/2021", quantity: "2") == 201)
        #expect(try send(port, "PUT", date: "14/06/2021", quantity: "2") == 201)
        #expect(try send(port, "GET", date: "14/06/2021", quantity: "2") == 404, "method not one of")
        #expect(try send(port, "POST", date: "14/06/2031", quantity: "2") == 404, "date not before")
        #expect(try send(port, "POST", date: "14/06/2021", quantity: "0") == 404, "schema minimum")
        #expect(try send(port, "POST", date: "14/06/2021", quantity: "\"2\"") == 404, "schema type")
    }

    @Test func fromAStubFile() throws {
        let stubs = try TemporaryStubs()
        stubs.write("mappings/orders.json", #"{"request": \#(Self.request), "response": {"status": 201}}"#)
        let server = try startServer(stubs: stubs.root)
        defer { server.stop() }
        try Self.checkAnswers(server.port)
        // The near-miss report explains each new criterion.
        let miss = try fetch(
            server.port, "GET", "/orders",
            headers: [("X-Sent", "14/06/2031"), ("Content-Type", "multipart/form-data; boundary=b")],
            body: Self.multipart(quantity: "0"))
        #expect(miss.text.contains("method") && miss.text.contains("expected oneOf PUT, POST, found GET"))
        #expect(miss.text.contains("expected before '2030-01-01T00:00:00Z' (format 'dd/MM/yyyy'), found '14/06/2031'"))
        #expect(miss.text.contains("multipart[0]") && miss.text.contains("'order' differs in body"))
    }

    @Test func fromTheAdminAPI() throws {
        let server = try startServer()
        defer { server.stop() }
        let created = try fetch(
            server.port, "POST", "/__admin/mappings", headers: [("Content-Type", "application/json")],
            body: #"{"request": \#(Self.request), "response": {"status": 201}}"#)
        #expect(created.status == 201, "\(created.text)")
        #expect(created.json["request"]?["method"] == ["oneOf": ["PUT", "POST"]])
        try Self.checkAnswers(server.port)
        let refused = try fetch(
            server.port, "POST", "/__admin/mappings", headers: [("Content-Type", "application/json")],
            body: #"{"request": {"bodyPatterns": [{"matchesJsonSchema": {"if": {}}}]}, "response": {}}"#)
        #expect(refused.status == 422 && refused.text.contains("'if' is not supported"), "\(refused.text)")
    }

    /// WireMock's serve event for an unmatched request names its default "not configured"
    /// mapping: one id, the same for every such event.
    @Test func anUnmatchedServeEventNamesTheDefaultStubMapping() throws {
        let server = try startServer()
        defer { server.stop() }
        #expect(try fetch(server.port, "/nothing").status == 404)
        #expect(try fetch(server.port, "/nothing-else").status == 404)
        let events = try fetch(server.port, "/__admin/requests").json["requests"]?.arrayValue ?? []
        #expect(events.count == 2)
        let ids = events.compactMap { $0["stubMapping"]?["id"]?.stringValue }
        #expect(ids == [StubMapping.notConfigured.id, StubMapping.notConfigured.id])
        #expect(events.first?["stubMapping"]?["response"]?["status"] == 404)
        #expect(events.first?["wasMatched"] == false)
    }
}
