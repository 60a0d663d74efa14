import APISchema
import ContractKit
import HTTPCore
import JSONKit
import Platform
import Testing

/// An operation that documents a JSON request body is sent one valid against its schema; an
/// undocumented client error answering it is a note, not drift.
@Suite struct LiveVerifierBodyTests {
    static let document = #"""
        {"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "paths": {
          "/books": {"post": {
            "requestBody": {"required": true, "content": {"application/json": {"schema": {
              "type": "object", "required": ["title", "pages"], "additionalProperties": false,
              "properties": {"title": {"type": "string", "minLength": 3}, "pages": {"type": "integer", "minimum": 10}}}}}},
            "responses": {"201": {"description": "made", "content": {"application/json": {"schema": {"type": "object"}}}}}}}}}
        """#

    static func verify(status: Int) async throws -> (VerificationReport, [(String?, JSONValue?)]) {
        let sent = Locked<[(String?, JSONValue?)]>([])
        let transport = ClosureTransport { request throws(HTTPClientError) in
            sent.withLock {
                $0.append(
                    (request.headers.first(name: "Content-Type"), request.body.flatMap { try? JSONValue(parsing: $0) }))
            }
            return HTTPClientResponse(
                status: HTTPStatus(code: status), headers: ["Content-Type": "application/json"], body: Array("{}".utf8))
        }
        let contract = try OpenAPIReader().read(Array(document.utf8), source: "t.json")
        let verifier = LiveVerifier(contract: contract, transport: transport, configuration: .init(methods: [.post]))
        let report = await verifier.verify(baseURL: "http://api.test", contractName: "t.json")
        return (report, sent.withLock { $0 })
    }

    @Test func aDocumentedBodyIsSentValidAgainstItsSchema() async throws {
        let (report, sent) = try await Self.verify(status: 201)
        #expect(report.findings.isEmpty)
        #expect(sent.count == 1)
        let (contentType, body) = try #require(sent.first)
        #expect(contentType == "application/json")
        let object = try #require(body?.objectValue)
        #expect(Set(object.keys) == ["title", "pages"])
        #expect((object["title"]?.stringValue?.count ?? 0) >= 3)
        if case .int(let pages)? = object["pages"] { #expect(pages >= 10) } else { Issue.record("pages: \(object)") }
    }

    @Test func anUndocumentedClientErrorToAMadeUpBodyIsANote() async throws {
        let (refused, _) = try await Self.verify(status: 409)
        #expect(refused.findings.isEmpty)
        #expect(
            refused.notes.contains { $0.hasPrefix("POST /books: status 409, not documented, answered a request body") })
        let (failed, _) = try await Self.verify(status: 500)
        #expect(failed.findings.contains { $0.id == .statusUnexpected })
    }
}
