import APISchema
import ContractKit
import JSONKit
import Testing

/// Inputs the fuzzer (Fuzz/, target FuzzOpenAPIReader) found wrong, kept as tests.
@Suite struct OpenAPIReaderFuzzRegressionTests {
    static let parameterWithExamplesInBothPlaces = #"""
        {"openapi": "3.1.0", "paths": {"/p/{id}": {"get": {
          "parameters": [{"name": "id", "in": "path", "schema": {"type": "integer", "examples": [1, 2]},
                          "examples": {"a": {"value": 2}, "b": {"value": 3}}}],
          "responses": {"200": {"description": "ok"}}}}}}
        """#

    @Test func parameterExamplesAreCountedOnceAndSurviveWriteAndRead() throws {
        let reader = OpenAPIReader()
        let contract = try reader.read(Array(Self.parameterWithExamplesInBothPlaces.utf8), source: "fuzz.json")
        let parameter = try #require(contract.operation(named: "GET /p/{id}")?.parameters.first)
        // The parameter's own examples first (they are the more specific), then the schema's.
        #expect(parameter.examples == [2, 3, 1])
        // The writer puts the examples on the schema and on the parameter; reading that back
        // must not add them up, or each write and read would double the list.
        let written = OpenAPIWriter().text(contract)
        let again = try reader.read(Array(written.utf8), source: "written.json")
        #expect(again.operation(named: "GET /p/{id}")?.parameters.first?.examples == [2, 3, 1])
        #expect(OpenAPIWriter().text(again) == written)
    }
}
