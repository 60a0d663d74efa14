import APISchema
import ContractKit
import JSONKit
import Testing

/// Checks a body against a response schema of a one-operation contract: `id path` per finding.
func findings(schema: String, components: String = "{}", body: String) throws -> [String] {
    let text = """
        {"openapi": "3.1.0", "info": {"title": "T", "version": "1"},
         "paths": {"/things": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json":
             {"schema": \(schema)}}}}}}},
         "components": {"schemas": \(components)}}
        """
    let contract = try OpenAPIReader().read(Array(text.utf8), source: "inline.json")
    let operation = try #require(contract.operation(named: "GET /things"))
    let result = ContractValidator(contract: contract).validate(
        ObservedResponse(url: "u", status: 200, body: Array(body.utf8)), for: operation)
    return result.findings.map { "\($0.id.rawValue) \($0.path)" }
}

@Suite struct SchemaCompositionTests {
    static let pets = ##"""
        {"Dog": {"type": "object", "required": ["kind", "bark"], "additionalProperties": false,
                 "properties": {"kind": {"type": "string"}, "bark": {"type": "boolean"}}},
         "Cat": {"type": "object", "required": ["kind", "meow"], "additionalProperties": false,
                 "properties": {"kind": {"type": "string"}, "meow": {"type": "integer"}}}}
        """##

    static let oneOf =
        ##"{"type": "array", "items": {"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}]}}"##

    @Test func aValidDogIsNotABrokenCat() throws {
        let body = ##"[{"kind": "cat", "meow": 3}, {"kind": "dog", "bark": true}]"##
        #expect(try findings(schema: Self.oneOf, components: Self.pets, body: body) == [])
    }

    @Test func noBranchMatchesReportsTheClosestBranchOnce() throws {
        // Closest to Dog (bark has the wrong type); Cat's differences are not reported.
        let body = ##"[{"kind": "dog", "bark": "loud"}]"##
        #expect(
            try findings(schema: Self.oneOf, components: Self.pets, body: body) == [
                "response-property-type-changed $[0].bark"
            ])
    }

    @Test func noBranchTakesTheTypeIsATypeChange() throws {
        #expect(
            try findings(schema: Self.oneOf, components: Self.pets, body: "[3]") == [
                "response-property-type-changed $[0]"
            ])
    }

    @Test(arguments: [
        // Without a mapping the value names the component.
        ##"{"propertyName": "kind"}"##,
        ##"{"propertyName": "kind", "mapping": {"Cat": "#/components/schemas/Cat", "Dog": "Dog"}}"##,
    ])
    func theDiscriminatorPicksTheBranch(discriminator: String) throws {
        let schema =
            ##"{"type": "array", "items": {"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}], "discriminator": "##
            + discriminator + "}}"
        #expect(try findings(schema: schema, components: Self.pets, body: ##"[{"kind": "Dog", "bark": true}]"##) == [])
        // Named a Cat, checked as a Cat even though it would be a valid Dog.
        #expect(
            try findings(schema: schema, components: Self.pets, body: ##"[{"kind": "Cat", "bark": true}]"##) == [
                "response-required-property-missing $[0].meow", "response-property-not-allowed $[0].bark",
            ])
        #expect(
            try findings(schema: schema, components: Self.pets, body: ##"[{"kind": "Cow"}]"##) == [
                "response-value-not-in-enum $[0].kind"
            ])
    }

    @Test func aMappingWithOtherValuesThanTheNames() throws {
        let schema =
            ##"{"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}], "discriminator": {"propertyName": "kind", "mapping": {"dog": "#/components/schemas/Dog", "cat": "#/components/schemas/Cat"}}}"##
        #expect(try findings(schema: schema, components: Self.pets, body: ##"{"kind": "dog", "bark": false}"##) == [])
        #expect(
            try findings(schema: schema, components: Self.pets, body: ##"{"kind": "cat", "bark": false}"##).first
                == "response-required-property-missing $.meow")
    }

    static let named = ##"""
        {"Named": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}}
        """##

    @Test func allOfOfAReferenceAndAnInlinePartChecksBoth() throws {
        let schema =
            ##"{"allOf": [{"$ref": "#/components/schemas/Named"}, {"type": "object", "required": ["age"], "properties": {"age": {"type": "integer", "minimum": 0}}}]}"##
        #expect(try findings(schema: schema, components: Self.named, body: ##"{"name": "Rex", "age": 3}"##) == [])
        #expect(
            try findings(schema: schema, components: Self.named, body: ##"{"age": -1}"##) == [
                "response-value-out-of-range $.age", "response-required-property-missing $.name",
            ])
        #expect(
            try findings(schema: schema, components: Self.named, body: ##"{"name": 1}"##) == [
                "response-property-type-changed $.name", "response-required-property-missing $.age",
            ])
    }

    @Test func allOfSurvivesWritingAndReading() throws {
        let text = """
            {"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "paths": {},
             "components": {"schemas": {"Named": {"type": "object"}, "Pet": {"allOf": [{"$ref": "#/components/schemas/Named"},
               {"properties": {"age": {"type": "integer", "exclusiveMinimum": 0}}}], "description": "d"}}}}
            """
        let contract = try OpenAPIReader().read(Array(text.utf8), source: "a.json")
        let written = OpenAPIWriter().text(contract)
        let again = try OpenAPIReader().read(Array(written.utf8), source: "b.json")
        #expect(again == contract)
        #expect(OpenAPIWriter().text(again) == written)
        #expect(contract.component(named: "Pet")?.allOf.count == 2)
    }

    @Test func recursiveReferencesTerminate() throws {
        let components = ##"""
            {"Node": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"},
               "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}},
               "parent": {"allOf": [{"$ref": "#/components/schemas/Node"}], "description": "up"}}},
             "Loop": {"allOf": [{"$ref": "#/components/schemas/Loop"}, {"type": "object", "properties": {"n": {"type": "integer"}}}]}}
            """##
        let body = ##"{"name": "a", "children": [{"name": "b", "children": [{"name": 3}]}], "parent": {"name": "p"}}"##
        #expect(
            try findings(schema: ##"{"$ref": "#/components/schemas/Node"}"##, components: components, body: body)
                .filter { !$0.hasPrefix("response-optional-property-missing") } == [
                    "response-property-type-changed $.children[0].children[0].name"
                ])
        #expect(
            try findings(
                schema: ##"{"$ref": "#/components/schemas/Loop"}"##, components: components, body: ##"{"n": "x"}"##)
                == ["response-property-type-changed $.n"])
    }

    @Test func subtypesThatReferToTheirPolymorphicParentTerminate() throws {
        // The usual hierarchy: Pet chooses by discriminator, Dog and Cat are allOf [Pet, own part].
        let components = ##"""
            {"Pet": {"type": "object", "required": ["kind"], "properties": {"kind": {"type": "string"}},
               "oneOf": [{"$ref": "#/components/schemas/Dog"}, {"$ref": "#/components/schemas/Cat"}],
               "discriminator": {"propertyName": "kind"}},
             "Dog": {"allOf": [{"$ref": "#/components/schemas/Pet"}, {"type": "object", "required": ["bark"],
               "properties": {"bark": {"type": "boolean"}}}]},
             "Cat": {"allOf": [{"$ref": "#/components/schemas/Pet"}, {"type": "object", "required": ["meow"],
               "properties": {"meow": {"type": "integer"}}}]},
             "Shape": {"oneOf": [{"$ref": "#/components/schemas/Square"}]},
             "Square": {"allOf": [{"$ref": "#/components/schemas/Shape"}, {"properties": {"side": {"type": "integer"}}}]}}
            """##
        let pets = ##"{"type": "array", "items": {"$ref": "#/components/schemas/Pet"}}"##
        #expect(
            try findings(
                schema: pets, components: components,
                body: ##"[{"kind": "Dog", "bark": true}, {"kind": "Cat", "meow": 1}]"##)
                == [])
        #expect(
            try findings(schema: pets, components: components, body: ##"[{"kind": "Cat", "meow": "x"}]"##) == [
                "response-property-type-changed $[0].meow"
            ])
        // Without a discriminator, a cycle through oneOf and allOf ends too.
        let shape = ##"{"$ref": "#/components/schemas/Shape"}"##
        #expect(try findings(schema: shape, components: components, body: ##"{"side": 2}"##) == [])
        let old = try OpenAPIReader().read(
            Array(
                ##"{"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "paths": {}, "components": {"schemas": "##
                    .utf8)
                + Array(components.utf8) + Array("}}".utf8), source: "c.json")
        #expect(ContractDiff().changes(old: old, new: old) == [])
    }

    @Test func propertiesBesideAOneOfHoldForEveryBranch() throws {
        let components = ##"""
            {"Pet": {"type": "object", "required": ["kind", "name"], "properties": {"kind": {"type": "string"},
               "name": {"type": "string"}}, "oneOf": [{"$ref": "#/components/schemas/Dog"}, {"$ref": "#/components/schemas/Cat"}],
               "discriminator": {"propertyName": "kind", "mapping": {"dog": "Dog", "cat": "Cat"}}},
             "Dog": {"type": "object", "required": ["bark"], "properties": {"bark": {"type": "boolean"}}},
             "Cat": {"type": "object", "required": ["meow"], "properties": {"meow": {"type": "integer"}}}}
            """##
        let pet = ##"{"$ref": "#/components/schemas/Pet"}"##
        #expect(
            try findings(schema: pet, components: components, body: ##"{"kind": "dog", "name": "Rex", "bark": true}"##)
                == [])
        #expect(
            try findings(schema: pet, components: components, body: ##"{"kind": "cat", "meow": 2}"##) == [
                "response-required-property-missing $.name"
            ])
    }

    @Test func cyclesOfChoicesAndNotsEnd() throws {
        let components = ##"""
            {"A": {"anyOf": [{"$ref": "#/components/schemas/B"}, {"type": "string"}]},
             "B": {"anyOf": [{"$ref": "#/components/schemas/A"}, {"type": "integer"}]},
             "N": {"not": {"$ref": "#/components/schemas/N"}}}
            """##
        let a = ##"{"$ref": "#/components/schemas/A"}"##
        #expect(try findings(schema: a, components: components, body: "1") == [])
        #expect(try findings(schema: a, components: components, body: "true") == ["response-property-type-changed $"])
        _ = try findings(schema: ##"{"$ref": "#/components/schemas/N"}"##, components: components, body: "1")
    }

    @Test func notConstAndEnum() throws {
        #expect(try findings(schema: ##"{"not": {"type": "string"}}"##, body: "1") == [])
        #expect(
            try findings(schema: ##"{"not": {"type": "string"}}"##, body: ##""x""##) == ["response-value-excluded $"])
        #expect(try findings(schema: ##"{"const": "on"}"##, body: ##""on""##) == [])
        #expect(try findings(schema: ##"{"const": "on"}"##, body: ##""off""##) == ["response-value-not-in-enum $"])
        #expect(try findings(schema: ##"{"type": "integer", "enum": [1, 2]}"##, body: "2") == [])
        #expect(
            try findings(schema: ##"{"type": "integer", "enum": [1, 2]}"##, body: "3") == [
                "response-value-not-in-enum $"
            ])
    }

    @Test func anyOfOfPrimitivesTakesTheBranchThatFits() throws {
        let schema = ##"{"anyOf": [{"type": "string", "format": "uuid"}, {"type": "integer", "minimum": 1}]}"##
        #expect(try findings(schema: schema, body: "5") == [])
        #expect(try findings(schema: schema, body: ##""00000000-0000-0000-0000-000000000000""##) == [])
        #expect(try findings(schema: schema, body: "0") == ["response-value-out-of-range $"])
        #expect(try findings(schema: schema, body: "true") == ["response-property-type-changed $"])
    }
}
