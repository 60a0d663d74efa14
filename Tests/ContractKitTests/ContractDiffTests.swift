import APISchema
import ContractKit
import JSONKit
import PetAppContract
import Testing

@Suite struct ContractDiffTests {
    func contract(pet: String, extraPaths: String = "") throws -> Contract {
        let text = """
            {"openapi": "3.1.0", "info": {"title": "T", "version": "1"},
             "paths": {"/pets": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json":
                 {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Pet"}}}}}, "404": {"description": "none"}}}}
                 \(extraPaths)},
             "components": {"schemas": {"Pet": \(pet)}}}
            """
        return try OpenAPIReader().read(Array(text.utf8), source: "inline")
    }

    static let base = #"""
        {"type": "object", "required": ["firstName", "vetId"], "properties": {
          "firstName": {"type": "string", "x-swift-property": "Pet.firstName: String"},
          "lastName": {"type": ["string", "null"]},
          "vetId": {"type": "integer"},
          "kind": {"type": "string", "enum": ["dog", "cat"]}}}
        """#

    func changes(_ newPet: String, extraPaths: String = "") throws -> [String] {
        let findings = ContractDiff().changes(
            old: try contract(pet: ContractDiffTests.base), new: try contract(pet: newPet, extraPaths: extraPaths))
        return findings.map { "\($0.id.rawValue)|\($0.level.rawValue)|\($0.path)" }
    }

    @Test func sameContractHasNoChanges() throws {
        #expect(try changes(ContractDiffTests.base) == [])
    }

    @Test(arguments: [
        (
            #"{"type": "object", "required": ["firstName", "vetId"], "properties": {"firstName": {"type": "string"}, "lastName": {"type": ["string", "null"]}, "vetId": {"type": "string"}, "kind": {"type": "string", "enum": ["dog", "cat"]}}}"#,
            ["response-property-type-changed|breaking|$.vetId"]
        ),
        (
            #"{"type": "object", "required": ["firstName"], "properties": {"firstName": {"type": "string"}, "lastName": {"type": ["string", "null"]}, "kind": {"type": "string", "enum": ["dog", "cat"]}}}"#,
            ["response-required-property-missing|breaking|$.vetId"]
        ),
        (
            #"{"type": "object", "required": ["firstName", "vetId"], "properties": {"firstName": {"type": "string"}, "vetId": {"type": "integer"}, "kind": {"type": "string", "enum": ["dog", "cat"]}}}"#,
            ["response-optional-property-missing|warning|$.lastName"]
        ),
        (
            #"{"type": "object", "required": ["firstName", "practitionerId"], "properties": {"firstName": {"type": "string"}, "lastName": {"type": ["string", "null"]}, "practitionerId": {"type": "integer"}, "kind": {"type": "string", "enum": ["dog", "cat"]}}}"#,
            ["response-property-probably-renamed|breaking|$.vetId"]
        ),
        (
            #"{"type": "object", "required": ["firstName", "vetId"], "properties": {"firstName": {"type": ["string", "null"]}, "lastName": {"type": ["string", "null"]}, "vetId": {"type": "integer"}, "kind": {"type": "string", "enum": ["dog", "cat"]}}}"#,
            ["response-required-property-null|breaking|$.firstName"]
        ),
        (
            #"{"type": "object", "required": ["firstName"], "properties": {"firstName": {"type": "string"}, "lastName": {"type": ["string", "null"]}, "vetId": {"type": "integer"}, "kind": {"type": "string", "enum": ["dog", "cat", "bird"]}, "age": {"type": "integer"}}}"#,
            [
                "response-required-property-missing|breaking|$.vetId",
                "response-property-enum-value-added|warning|$.kind",
                "response-property-unexpected|info|$.age",
            ]
        ),
    ])
    func schemaChangesHaveTheLiveIds(newPet: String, expected: [String]) throws {
        #expect(try changes(newPet) == expected)
    }

    @Test func operationsAndStatuses() throws {
        let old = try contract(
            pet: ContractDiffTests.base,
            extraPaths: #", "/vets": {"get": {"responses": {"200": {"description": "ok"}}}}"#)
        var new = try contract(
            pet: ContractDiffTests.base,
            extraPaths: #", "/owners/{ownerId}": {"get": {"responses": {"200": {"description": "ok"}}}}"#)
        new.operations[0].responses.removeAll { $0.status == "200" }
        new.operations[0].responses.append(ContractResponse(status: "500", description: "boom", mediaType: nil))
        let report = ContractDiff().report(old: old, new: new, oldName: "old.json", newName: "new.json")
        #expect(
            report.findings.map { "\($0.id.rawValue)|\($0.level.rawValue)|\($0.operation)" } == [
                "response-status-removed|breaking|GET /pets",
                "response-status-added|info|GET /pets",
                "operation-removed|breaking|GET /vets",
                "operation-added|info|GET /owners/{ownerId}",
            ])
        #expect(report.target == "old.json -> new.json")
        #expect(report.outcome(strict: false) == .failed)
    }

    @Test func generatedContractAgainstItselfPasses() throws {
        let (contract, _) = try PetAPIProvider.make()
        #expect(ContractDiff().changes(old: contract, new: contract).isEmpty)
    }
}
