import APISchema
import ContractKit
import TestSupport
import Testing

/// `verify --stub` finds a mapping's operation as petmock and the document route it: a literal
/// segment before a parameter, whichever operation the document lists first.
@Suite struct StubVerifierOperationTests {
    static let document = """
        openapi: 3.0.3
        info: {title: Runners, version: "1"}
        paths:
          /runners/{id}:
            get:
              parameters: [{name: id, in: path, required: true, schema: {type: string}}]
              responses:
                "200":
                  description: One runner
                  content:
                    application/json:
                      schema: {type: object, required: [id], properties: {id: {type: integer}}}
          /runners/downloads:
            get:
              responses:
                "200":
                  description: The downloads
                  content:
                    application/json:
                      schema: {type: array, items: {type: string}}
        """

    @Test func aLiteralSegmentWinsOverAParameter() throws {
        let contract = try OpenAPIReader().read(Array(Self.document.utf8), source: "runners.yaml")
        let mapping = """
            {"request": {"method": "GET", "urlPath": "/api/runners/downloads"},
             "response": {"status": 200, "jsonBody": ["osx"]}}
            """
        let folder = try TemporaryDirectory(files: ["mappings/downloads.json": mapping])
        defer { folder.remove() }
        let report = StubVerifier(contract: contract).verify(directory: folder.path, contractName: "runners")
        #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        #expect(report.operations == ["GET /runners/downloads"])
    }
}
