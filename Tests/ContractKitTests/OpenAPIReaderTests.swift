import APISchema
import ContractKit
import JSONKit
import Testing

@Suite struct OpenAPIReaderTests {
    func read(_ text: String) throws(ContractError) -> Contract {
        try OpenAPIReader().read(Array(text.utf8), source: "test.json")
    }

    static let openAPI30 = #"""
        {"openapi": "3.0.3", "info": {"title": "T", "version": "2"},
         "paths": {"/things/{thingId}": {
           "parameters": [{"$ref": "#/components/parameters/ThingId"}],
           "get": {"responses": {
             "200": {"description": "ok", "content": {"application/vnd.api+json": {"schema": {"$ref": "#/components/schemas/Thing"}}}},
             "default": {"$ref": "#/components/responses/Problem"}}}}},
         "components": {
           "parameters": {"ThingId": {"name": "thingId", "in": "path", "required": true, "schema": {"type": "integer"}, "example": 7}},
           "responses": {"Problem": {"description": "problem", "content": {"application/json": {"schema": {"type": "object"}}}}},
           "schemas": {
             "Thing": {"type": "object", "required": ["name", "code"], "properties": {
               "code": {"type": "integer"},
               "name": {"type": "string", "nullable": true, "x-swift-property": "Thing.name: String?"},
               "kind": {"type": "string", "enum": ["a", "b"], "nullable": true},
               "parts": {"type": "array", "items": {"$ref": "#/components/schemas/Part"}},
               "extra": {"type": "object", "additionalProperties": {"type": "integer"}},
               "owner": {"allOf": [{"$ref": "#/components/schemas/Part"}]},
               "either": {"oneOf": [{"type": "string"}, {"type": "integer"}]}},
               "additionalProperties": false, "x-swift-type": "Thing"},
             "Part": {"type": "object", "properties": {"id": {"type": "integer", "format": "int64"}}}}}}
        """#

    @Test func readsOpenAPI30WithNullableRefsAndExtensions() throws {
        let contract = try read(OpenAPIReaderTests.openAPI30)
        #expect(contract.title == "T")
        let operation = try #require(contract.operation(named: "GET /things/{thingId}"))
        #expect(operation.pathParameters.map(\.name) == ["thingId"])
        #expect(operation.pathParameters.first?.examples == [7])
        let ok = try #require(operation.response(for: 200))
        #expect(ok.mediaType == "application/vnd.api+json")
        #expect(ok.schema?.reference == "#/components/schemas/Thing")
        #expect(operation.response(for: 503)?.status == "default")
        let thing = try #require(contract.component(named: "Thing"))
        #expect(thing.swiftType == "Thing")
        #expect(thing.additionalProperties == .forbidden)
        #expect(thing.property(named: "name")?.schema.types == [.string, .null])
        #expect(thing.property(named: "name")?.schema.swiftProperty == "Thing.name: String?")
        #expect(thing.property(named: "kind")?.schema.enumValues == ["a", "b", nil])
        #expect(thing.property(named: "parts")?.schema.items?.reference == "#/components/schemas/Part")
        #expect(thing.property(named: "owner")?.schema.reference == "#/components/schemas/Part")
        #expect(thing.property(named: "either")?.schema.anyOf.count == 2)
        if case .schema(let values) = thing.property(named: "extra")?.schema.additionalProperties {
            #expect(values.types == [.integer])
        } else {
            Issue.record("additionalProperties schema not read")
        }
    }

    @Test func validatesAgainstA30Contract() throws {
        let contract = try read(OpenAPIReaderTests.openAPI30)
        let validator = ContractValidator(contract: contract)
        let operation = try #require(contract.operation(named: "GET /things/{thingId}"))
        let body =
            #"{"name": null, "code": null, "kind": "c", "parts": [{"id": 1}, {"id": "2"}], "extra": {"a": 1, "b": "x"}, "owner": {"id": 3}, "either": true, "zzz": 1}"#
        let findings = validator.validate(
            ObservedResponse(url: "u", status: 200, contentType: "application/vnd.api+json", body: Array(body.utf8)),
            for: operation
        ).findings
        #expect(
            findings.map { "\($0.id.rawValue) \($0.path)" } == [
                "response-required-property-null $.code",
                "response-value-not-in-enum $.kind",
                "response-property-type-changed $.parts[1].id",
                "response-property-type-changed $.extra.b",
                "response-property-type-changed $.either",
                "response-property-not-allowed $.zzz",
            ])
    }

    @Test func notJSONIsItsOwnError() {
        #expect {
            try read("<html>not a contract</html>")
        } throws: { error in
            guard case .notJSON(let file, let parseError) = error as? ContractError else { return false }
            return file == "test.json" && parseError.offset == 0
        }
    }

    @Test(arguments: [
        (#"{"info": {}}"#, "$.openapi"),
        (#"{"openapi": "2.0"}"#, "$.openapi"),
        (#"{"openapi": "3.1.0", "paths": []}"#, "$.paths"),
        (#"{"openapi": "3.1.0", "paths": {"pets": {}}}"#, "$.paths.pets"),
        (#"{"openapi": "3.0.3", "paths": {"/p": {"get": {}}}}"#, "$.paths['/p'].get.responses"),
        (
            #"{"openapi": "3.1.0", "paths": {"/p": {"get": {"responses": {"ok": {}}}}}}"#,
            "$.paths['/p'].get.responses.ok"
        ),
        (#"{"openapi": "3.1.0", "components": {"schemas": {"A": {"type": "text"}}}}"#, "$.components.schemas.A.type"),
        (
            #"{"openapi": "3.1.0", "components": {"schemas": {"A": {"required": "x"}}}}"#,
            "$.components.schemas.A.required"
        ),
        (
            #"{"openapi": "3.1.0", "paths": {"/p": {"get": {"parameters": [{"name": "x", "in": "body"}], "responses": {}}}}}"#,
            "$.paths['/p'].get.parameters[0]"
        ),
    ])
    func invalidContractsSayWhere(text: String, path: String) {
        #expect {
            try read(text)
        } throws: { error in
            guard case .invalidContract(let file, let found, _, _) = error as? ContractError else { return false }
            return file == "test.json" && found == path
        }
    }

    @Test func unresolvedReferencesAreReported() {
        let text =
            ##"{"openapi": "3.1.0", "components": {"schemas": {"A": {"properties": {"b": {"$ref": "#/components/schemas/B"}}}}}}"##
        #expect(
            throws: ContractError.unresolvedReference(
                file: "test.json", path: "$.components.schemas.A.properties.b", reference: "#/components/schemas/B")
        ) {
            try read(text)
        }
    }
}
