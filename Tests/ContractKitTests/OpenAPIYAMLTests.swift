import APISchema
import ContractKit
import Foundation
import JSONKit
import TestSupport
import Testing

/// The same OpenAPI document in YAML and in JSON reads to the same contract and gives the same
/// report, byte for byte.
@Suite struct OpenAPIYAMLTests {
    static let yaml = """
        openapi: 3.0.3
        info:
          title: Petstore
          version: "1.0"      # quoted: stays the string "1.0"
        paths:
          /pets:
            get:
              operationId: listPets
              responses:
                200:
                  description: >
                    A page of pets,
                    folded into one line
                  content:
                    application/json:
                      schema:
                        type: array
                        items: {$ref: '#/components/schemas/Pet'}
                default: &error
                  description: unexpected error
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/Error'}
          /pets/{petId}:
            get:
              operationId: showPetById
              parameters:
                - {name: petId, in: path, required: true, schema: {type: string}, example: "01"}
              responses:
                "200":
                  description: Expected response to a valid request
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/Pet'}
                default: *error
        components:
          schemas:
            Pet:
              type: object
              required: [id, name]
              properties:
                id: {type: integer, format: int64}
                name: {type: string}
                tag: {type: string, nullable: true}
            Error:
              type: object
              required: [code, message]
              properties:
                code: {type: integer, format: int32}
                message: {type: string}
        """

    static let json = """
        {"openapi": "3.0.3", "info": {"title": "Petstore", "version": "1.0"},
         "paths": {
          "/pets": {"get": {"operationId": "listPets", "responses": {
            "200": {"description": "A page of pets, folded into one line\\n", "content": {"application/json": {"schema":
              {"type": "array", "items": {"$ref": "#/components/schemas/Pet"}}}}},
            "default": {"description": "unexpected error", "content": {"application/json": {"schema":
              {"$ref": "#/components/schemas/Error"}}}}}}},
          "/pets/{petId}": {"get": {"operationId": "showPetById",
            "parameters": [{"name": "petId", "in": "path", "required": true, "schema": {"type": "string"}, "example": "01"}],
            "responses": {
              "200": {"description": "Expected response to a valid request", "content": {"application/json": {"schema":
                {"$ref": "#/components/schemas/Pet"}}}},
              "default": {"description": "unexpected error", "content": {"application/json": {"schema":
                {"$ref": "#/components/schemas/Error"}}}}}}}},
         "components": {"schemas": {
          "Pet": {"type": "object", "required": ["id", "name"], "properties": {
            "id": {"type": "integer", "format": "int64"}, "name": {"type": "string"},
            "tag": {"type": "string", "nullable": true}}},
          "Error": {"type": "object", "required": ["code", "message"], "properties": {
            "code": {"type": "integer", "format": "int32"}, "message": {"type": "string"}}}}}}
        """

    @Test func yamlAndJSONReadToTheSameContract() throws {
        let fromYAML = try OpenAPIReader().read(Array(Self.yaml.utf8), source: "petstore.yaml")
        let fromJSON = try OpenAPIReader().read(Array(Self.json.utf8), source: "petstore.json")
        #expect(fromYAML == fromJSON)
        #expect(fromYAML.version == "1.0")
        #expect(fromYAML.operation(named: "GET /pets/{petId}")?.pathParameters.first?.examples == [.string("01")])
        #expect(OpenAPIWriter().text(fromYAML) == OpenAPIWriter().text(fromJSON))
    }

    @Test func yamlAndJSONGiveByteIdenticalReports() throws {
        let drifted =
            #"{"request": {"method": "GET", "url": "/pets"}, "response": {"status": 200, "jsonBody": [{"id": "1", "petName": "Rex"}]}}"#
        let folder = try TemporaryDirectory(prefix: "yaml", files: ["mappings/pets.json": drifted])
        defer { folder.remove() }
        var reports: [String] = []
        for (text, name) in [(Self.yaml, "petstore.yaml"), (Self.json, "petstore.json")] {
            let contract = try OpenAPIReader().read(Array(text.utf8), source: name)
            let report = StubVerifier(contract: contract).verify(directory: folder.path, contractName: "petstore")
            #expect(report.summary.breaking > 0)
            for format in ReportFormat.allCases { reports.append(ReportRenderer().render(report, as: format)) }
        }
        let half = reports.count / 2
        #expect(Array(reports[..<half]) == Array(reports[half...]))
    }

    @Test func yamlErrorsNameTheFileLineAndColumn() {
        #expect {
            try OpenAPIReader().read(Array("openapi: 3.1.0\npaths:\n  /a: {get: [}\n".utf8), source: "bad.yaml")
        } throws: { error in
            guard case .notYAML(let file, let line, _, _) = error as? ContractError else { return false }
            return file == "bad.yaml" && line == 3 && "\(error)".hasPrefix("bad.yaml: not YAML: line 3")
        }
        // Text that starts like YAML is read as YAML whatever the file is called, except .json.
        #expect {
            try OpenAPIReader().read(Array("openapi: 3.1.0".utf8), source: "contract.json")
        } throws: { error in
            if case .notJSON? = error as? ContractError { return true }
            return false
        }
    }
}
