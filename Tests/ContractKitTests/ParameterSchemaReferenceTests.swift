import APISchema
import ContractKit
import Foundation
import HTTPClient
import HTTPCore
import JSONKit
import Testing

/// A parameter without values of its own takes its schema's, also when the schema (or the
/// parameter) is a `$ref`: its examples, else its first `enum` value, else its `default`.
@Suite struct ParameterSchemaReferenceTests {
    func calls(_ contract: Contract) async -> (VerificationReport, [String]) {
        let (transport, log) = LiveVerifierParameterTests.transport()
        let verifier = LiveVerifier(contract: contract, transport: transport)
        let report = await verifier.verify(baseURL: LiveVerifierParameterTests.base, contractName: "t")
        return (report, log.all)
    }

    /// The OAI `tictactoe` example: `row` and `column` are `$ref`s to components parameters whose
    /// schema is `$ref: coordinate`, which carries `example: 1`.
    @Test func tictactoeBoardSquareTakesTheCoordinateExample() async throws {
        let file = OAICorpusTests.folder.appendingPathComponent("tictactoe.yaml").path
        let (report, log) = await calls(try OpenAPIReader().read(file: file))
        #expect(!report.skipped.contains { $0.operation == "GET /board/{row}/{column}" }, "\(report.skipped)")
        #expect(log.contains("GET /board/1/1"), "\(log)")
    }

    @Test(arguments: [
        (#""example": 7"#, "7"),
        (#""examples": [8, 9]"#, "8"),
        (#""enum": ["north", "south"]"#, "north"),
        (#""default": "d""#, "d"),
        (##""$ref": "#/components/schemas/inner""##, "5"),
    ])
    func aReferencedSchemaGivesItsValue(component: String, value: String) async throws {
        let document = """
            {"openapi": "3.1.0", "info": {"title": "T", "version": "1"},
             "paths": {"/things/{p}": {"get": {
               "parameters": [{"$ref": "#/components/parameters/p"}], \(LiveVerifierParameterTests.ok)}}},
             "components": {
               "parameters": {"p": {"name": "p", "in": "path", "required": true,
                                    "schema": {"$ref": "#/components/schemas/outer"}}},
               "schemas": {"outer": {"type": "string", \(component)}, "inner": {"type": "integer", "example": 5}}}}
            """
        let contract = try OpenAPIReader().read(Array(document.utf8), source: "t.json")
        let (report, log) = await calls(contract)
        #expect(report.skipped.isEmpty, "\(report.skipped)")
        #expect(log.first == "GET /things/\(value)", "\(log)")
    }
}
