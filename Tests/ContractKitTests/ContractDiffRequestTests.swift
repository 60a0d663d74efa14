import APISchema
import ContractKit
import Testing

@Suite struct ContractDiffRequestTests {
    func contract(_ paths: String, components: String = "{}") throws -> Contract {
        let text = """
            {"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "paths": \(paths),
             "components": {"schemas": \(components)}}
            """
        return try OpenAPIReader().read(Array(text.utf8), source: "inline.json")
    }

    func changes(old: String, new: String, components: (String, String) = ("{}", "{}")) throws -> [String] {
        ContractDiff().changes(
            old: try contract(old, components: components.0), new: try contract(new, components: components.1)
        ).map { "\($0.id.rawValue)|\($0.level.rawValue)|\($0.operation)|\($0.path)" }
    }

    func search(_ parameters: String) -> String {
        ##"{"/pets/{id}": {"get": {"parameters": ["##
            + ##"{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}"## + parameters
            + ##"], "responses": {"200": {"description": "ok"}}}}}"##
    }

    static let limit = ##", {"name": "limit", "in": "query", "schema": {"type": "integer"}}"##
    static let sort = ##", {"name": "sort", "in": "query", "schema": {"type": "string", "enum": ["name", "age"]}}"##

    @Test func aNewRequiredQueryParameterBreaks() throws {
        let added = ##", {"name": "owner", "in": "query", "required": true, "schema": {"type": "string"}}"##
        #expect(
            try changes(old: search(""), new: search(added)) == [
                "request-parameter-added-required|breaking|GET /pets/{id}|query.owner"
            ])
        // An optional one does not; nor does renaming the path placeholder.
        let optional = ##", {"name": "owner", "in": "query", "schema": {"type": "string"}}"##
        #expect(try changes(old: search(""), new: search(optional)) == [])
        let renamed = search("").replacing("/pets/{id}", with: "/pets/{petId}").replacing(
            ##""id""##, with: ##""petId""##)
        #expect(try changes(old: search(""), new: renamed) == [])
    }

    @Test func parametersRemovedMadeRequiredRetypedOrNarrowed() throws {
        #expect(
            try changes(old: search(Self.limit), new: search("")) == [
                "request-parameter-removed|warning|GET /pets/{id}|query.limit"
            ])
        #expect(
            try changes(
                old: search(Self.limit),
                new: search(Self.limit.replacing(##""in": "query""##, with: ##""in": "query", "required": true"##)))
                == [
                    "request-parameter-became-required|breaking|GET /pets/{id}|query.limit"
                ])
        #expect(
            try changes(old: search(Self.limit), new: search(Self.limit.replacing("integer", with: "string"))) == [
                "request-parameter-type-changed|breaking|GET /pets/{id}|query.limit"
            ])
        // Widening an integer to a number is fine for a client.
        #expect(
            try changes(old: search(Self.limit), new: search(Self.limit.replacing("integer", with: "number"))) == [])
        #expect(
            try changes(old: search(Self.sort), new: search(Self.sort.replacing(##", "age""##, with: ""))) == [
                "request-parameter-enum-value-removed|breaking|GET /pets/{id}|query.sort"
            ])
        #expect(
            try changes(old: search(Self.sort), new: search(Self.sort.replacing(##""age""##, with: ##""age", "id""##)))
                == [])
    }

    func create(_ schema: String, media: String = "application/json", required: Bool = true) -> String {
        ##"{"/pets": {"post": {"requestBody": {"required": \##(required), "content": {"\##(media)": {"schema": \##(schema)}}}, "##
            + ##""responses": {"201": {"description": "created"}}}}}"##
    }

    static let pet = ##"""
        {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"},
         "age": {"type": "integer"}, "kind": {"type": "string", "enum": ["dog", "cat"]},
         "id": {"type": "integer", "readOnly": true}}}
        """##

    @Test func requestBodies() throws {
        let oldPet = Self.pet
        // A property added as required.
        let withChip = oldPet.replacing(##""required": ["name"]"##, with: ##""required": ["name", "chip"]"##)
            .replacing(##""age": {"##, with: ##""chip": {"type": "string"}, "age": {"##)
        #expect(
            try changes(old: create(oldPet), new: create(withChip)) == [
                "request-body-property-added-required|breaking|POST /pets|$.chip"
            ])
        // An optional property made required; a readOnly one made required is not the client's to send.
        let ageRequired = oldPet.replacing(##""required": ["name"]"##, with: ##""required": ["name", "age", "id"]"##)
        #expect(
            try changes(old: create(oldPet), new: create(ageRequired)) == [
                "request-body-property-became-required|breaking|POST /pets|$.age"
            ])
        // A type changed; an enum value removed.
        let ageText = oldPet.replacing(##""age": {"type": "integer"}"##, with: ##""age": {"type": "string"}"##)
        #expect(
            try changes(old: create(oldPet), new: create(ageText)) == [
                "request-body-property-type-changed|breaking|POST /pets|$.age"
            ])
        let dogsOnly = oldPet.replacing(##"["dog", "cat"]"##, with: ##"["dog"]"##)
        #expect(
            try changes(old: create(oldPet), new: create(dogsOnly)) == [
                "request-body-enum-value-removed|breaking|POST /pets|$.kind"
            ])
        // A media type removed; a body newly required.
        #expect(
            try changes(old: create(oldPet), new: create(oldPet, media: "application/xml")) == [
                "request-body-media-type-removed|breaking|POST /pets|$"
            ])
        let noBody = ##"{"/pets": {"post": {"responses": {"201": {"description": "created"}}}}}"##
        #expect(
            try changes(old: noBody, new: create(oldPet)) == ["request-body-added-required|breaking|POST /pets|$"])
        #expect(try changes(old: noBody, new: create(oldPet, required: false)) == [])
    }

    @Test func requestBodiesSurviveWritingAndReading() throws {
        let contract = try contract(create(Self.pet))
        let written = OpenAPIWriter().text(contract)
        let again = try OpenAPIReader().read(Array(written.utf8), source: "again.json")
        #expect(again == contract)
        #expect(again.operations[0].requestBody?.required == true)
        #expect(again.operations[0].requestBody?.media("application/json")?.schema?.property(named: "age") != nil)
    }

    static let named =
        ##"{"Named": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}}"##

    @Test func allOfOfAReferenceAndAnInlinePartIsComparedWhole() throws {
        func pets(_ inline: String) -> String {
            ##"{"/pets": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {"schema": "##
                + ##"{"allOf": [{"$ref": "#/components/schemas/Named"}, \##(inline)]}}}}}}}}"##
        }
        let before = ##"{"type": "object", "required": ["age"], "properties": {"age": {"type": "integer"}}}"##
        // The inline part changed.
        #expect(
            try changes(
                old: pets(before), new: pets(before.replacing(##""type": "integer""##, with: ##""type": "string""##)),
                components: (Self.named, Self.named)) == ["response-property-type-changed|breaking|GET /pets|$.age"])
        // The referenced part changed.
        let renamed = Self.named.replacing(##""type": "string""##, with: ##""type": "integer""##)
        #expect(
            try changes(old: pets(before), new: pets(before), components: (Self.named, renamed)) == [
                "response-property-type-changed|breaking|GET /pets|$.name"
            ])
    }

    @Test func aComponentChangeIsOneFindingListingTheOperations() throws {
        let component =
            ##"{"Pet": {"type": "object", "properties": {"vetId": {"type": "integer"}, "owner": {"$ref": "#/components/schemas/Pet"}}}}"##
        var paths: [String] = []
        for index in 0..<40 {
            paths.append(
                ##""/p\##(index)": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": "##
                    + ##"{"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Pet"}}}}}, "##
                    + ##""201": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}}}}}"##
            )
        }
        let document = "{" + paths.joined(separator: ", ") + "}"
        let findings = ContractDiff().changes(
            old: try contract(document, components: component),
            new: try contract(
                document, components: component.replacing(##""type": "integer""##, with: ##""type": "string""##)))
        #expect(findings.count == 1)
        let finding = try #require(findings.first)
        #expect(finding.id == .propertyTypeChanged)
        #expect(finding.operation == "component Pet")
        #expect(finding.path == "$.vetId")
        #expect(finding.count == 40)
        #expect(finding.message.hasSuffix("in component Pet (40 operations)"))
        #expect(finding.hint?.hasPrefix("affects GET /p0 (200), GET /p0 (201), GET /p1 (200)") == true)
        // An ignore file can name the component as the operation.
        let ignore = try IgnoreList(text: "response-property-type-changed $.vetId component Pet", file: "ignore")
        #expect(ignore.accepts(finding))
    }
}
