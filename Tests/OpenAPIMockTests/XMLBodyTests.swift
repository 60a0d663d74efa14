import APISchema
import ContractKit
import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine
import Testing
import XMLKit

@testable import OpenAPIMock

/// Answers under `application/xml` and `+xml`: an object example or a generated value written
/// as XML, as the schema's `xml` objects say (names, attributes, wrapped and unwrapped arrays,
/// namespaces and prefixes), as OpenAPI's XML object examples show; the `xml` object read and
/// written back by APISchema; what XML cannot hold a 500 problem that says why.
@Suite struct XMLBodyTests {
    static func contract(_ paths: String, components: String = "{}") throws -> Contract {
        let text = """
            {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": \(paths),
             "components": {"schemas": \(components)}}
            """
        return try OpenAPIReader().read(Array(text.utf8), source: "test.json")
    }

    /// One GET /x answering `schema` with `example` under `mediaType`.
    static func answer(
        schema: String, example: String?, mediaType: String = "application/xml", components: String = "{}"
    ) throws -> HTTPResponse {
        let example = example.map { #", "example": \#($0)"# } ?? ""
        let paths = """
            {"/x": {"get": {"responses": {"200": {"description": "ok", "content": {"\(mediaType)":
                {"schema": \(schema)\(example)}}}}}}}
            """
        let responder = OpenAPIResponder(contract: try contract(paths, components: components))
        return try #require(responder.answer(method: .get, path: "/x", headers: [:])).response
    }

    static func xml(_ response: HTTPResponse) -> String {
        let text = String(decoding: response.body, as: UTF8.self)
        let declaration = #"<?xml version="1.0" encoding="UTF-8"?>"#
        #expect(text.hasPrefix(declaration))
        return String(text.dropFirst(declaration.count))
    }

    @Test func anObjectExampleIsWrittenAsElementsNamedByTheSchema() throws {
        let response = try Self.answer(
            schema: ##"{"$ref": "#/components/schemas/Person"}"##,
            example: #"{"id": 123, "name": "a & b", "ok": true}"#,
            components: """
                {"Person": {"type": "object", "properties": {
                    "id": {"type": "integer", "xml": {"attribute": true}},
                    "name": {"type": "string", "xml": {"namespace": "http://example.com/schema/sample", "prefix": "sample"}},
                    "ok": {"type": "boolean"}}}}
                """)
        #expect(response.status.code == 200)
        #expect(response.headers["Content-Type"] == "application/xml")
        #expect(
            Self.xml(response)
                == #"<Person id="123"><sample:name xmlns:sample="http://example.com/schema/sample">a &amp; b</sample:name>"#
                + "<ok>true</ok></Person>")
        #expect(try XMLDocument(parsing: response.body).root.name.localName == "Person")
    }

    @Test func theRootIsNamedByItsXMLNameElseRoot() throws {
        let named = try Self.answer(
            schema:
                #"{"type": "object", "xml": {"name": "item", "namespace": "urn:i"}, "properties": {"n": {"type": "integer"}}}"#,
            example: #"{"n": 1}"#)
        #expect(Self.xml(named) == #"<item xmlns="urn:i"><n>1</n></item>"#)
        let plain = try Self.answer(schema: #"{"type": "object"}"#, example: #"{"n": null}"#)
        #expect(Self.xml(plain) == "<root><n/></root>")
    }

    /// OpenAPI's XML object examples of arrays: unwrapped elements repeat under the property's
    /// name (the array's own name has no effect), wrapped ones inside the array's element.
    @Test(arguments: [
        (#"{"type": "array", "items": {"type": "string"}}"#, "<animals>a</animals><animals>b</animals>"),
        (
            #"{"type": "array", "items": {"type": "string", "xml": {"name": "animal"}}}"#,
            "<animal>a</animal><animal>b</animal>"
        ),
        (
            #"{"type": "array", "items": {"type": "string", "xml": {"name": "animal"}}, "xml": {"name": "aliens"}}"#,
            "<animal>a</animal><animal>b</animal>"
        ),
        (
            #"{"type": "array", "items": {"type": "string"}, "xml": {"wrapped": true}}"#,
            "<animals><animals>a</animals><animals>b</animals></animals>"
        ),
        (
            #"{"type": "array", "items": {"type": "string", "xml": {"name": "animal"}}, "xml": {"wrapped": true}}"#,
            "<animals><animal>a</animal><animal>b</animal></animals>"
        ),
        (
            #"{"type": "array", "items": {"type": "string"}, "xml": {"name": "aliens", "wrapped": true}}"#,
            "<aliens><aliens>a</aliens><aliens>b</aliens></aliens>"
        ),
        (
            #"{"type": "array", "items": {"type": "string", "xml": {"name": "animal"}}, "xml": {"name": "aliens", "wrapped": true}}"#,
            "<aliens><animal>a</animal><animal>b</animal></aliens>"
        ),
    ])
    func arraysRepeatWrappedOrNot(_ animals: String, _ expected: String) throws {
        let response = try Self.answer(
            schema: #"{"type": "object", "xml": {"name": "zoo"}, "properties": {"animals": \#(animals)}}"#,
            example: #"{"animals": ["a", "b"]}"#)
        #expect(Self.xml(response) == "<zoo>\(expected)</zoo>")
    }

    @Test func aRootArrayIsWrappedItsElementsNamedByTheirComponent() throws {
        let response = try Self.answer(
            schema: ##"{"type": "array", "items": {"$ref": "#/components/schemas/Pet"}}"##,
            example: #"[{"id": 1}, {"id": 2}]"#,
            components: #"{"Pet": {"type": "object", "properties": {"id": {"type": "integer"}}}}"#)
        #expect(Self.xml(response) == "<root><Pet><id>1</id></Pet><Pet><id>2</id></Pet></root>")
    }

    @Test func aGeneratedValueIsWrittenAsXMLToo() throws {
        let response = try Self.answer(
            schema:
                #"{"type": "object", "xml": {"name": "thing"}, "required": ["id"], "properties": {"id": {"type": "integer", "xml": {"attribute": true}}}}"#,
            example: nil, mediaType: "application/vnd.thing+xml")
        let parsed = try XMLDocument(parsing: response.body)
        #expect(parsed.root.name.localName == "thing")
        #expect(parsed.root.attributes.map(\.name.localName) == ["id"])
    }

    @Test func aStringExampleIsSentAsItIs() throws {
        let response = try Self.answer(schema: #"{"type": "object"}"#, example: #""<given/>""#)
        #expect(String(decoding: response.body, as: UTF8.self) == "<given/>")
    }

    /// Each value XML cannot hold is a 500 problem naming the place in the value.
    @Test(arguments: [
        (#"{"type": "object"}"#, #"{"a b": 1}"#, "$['a b']: 'a b' is not an XML name"),
        (
            #"{"type": "object", "properties": {"id": {"type": "object", "xml": {"attribute": true}}}}"#,
            #"{"id": {}}"#,
            "$.id: an attribute ('id') holds a scalar, not object"
        ),
        (
            #"{"type": "object", "properties": {"id": {"type": "string", "xml": {"prefix": "p"}}}}"#, #"{"id": "x"}"#,
            "$.id: the prefix 'p' of 'id' has no namespace to stand for"
        ),
        (#"{"type": "object"}"#, #"{"t": "\u0001"}"#, "$: U+1 is not a character XML 1.0 can hold"),
    ])
    func whatXMLCannotHoldIsA500ThatSaysWhy(_ schema: String, _ example: String, _ reason: String) throws {
        let response = try Self.answer(schema: schema, example: example)
        #expect(response.status.code == 500)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        let problem = try JSONValue(parsing: response.body)
        #expect(problem["type"] == .string("urn:petmock:problem:cannot-serialize"))
        let detail = try #require(problem["detail"]?.stringValue)
        #expect(detail.hasSuffix("the body cannot be written as XML: \(reason)"), "\(detail)")
    }

    @Test func theXMLObjectIsReadAndWrittenBack() throws {
        let contract = try Self.contract(
            ##"{"/x": {"get": {"responses": {"200": {"description": "ok", "content": {"application/xml": {"schema": {"$ref": "#/components/schemas/P"}}}}}}}}"##,
            components:
                #"{"P": {"type": "object", "xml": {"name": "p", "namespace": "urn:p", "prefix": "q", "wrapped": true, "x-note": 1}, "properties": {"id": {"type": "integer", "xml": {"attribute": true}}}}}"#
        )
        let schema = try #require(contract.component(named: "P"))
        #expect(schema.xml == SchemaXML(name: "p", namespace: "urn:p", prefix: "q", wrapped: true))
        #expect(schema.property(named: "id")?.schema.xml == SchemaXML(attribute: true))
        let written = OpenAPIWriter().schema(schema)
        #expect(written["xml"] == ["name": "p", "namespace": "urn:p", "prefix": "q", "wrapped": true])
        #expect(written["properties"]?["id"]?["xml"] == ["attribute": true])
    }

    @Test func aSwaggerDocumentsXMLObjectsAreFollowed() throws {
        let text = ##"""
            {"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {"/p": {"get": {"produces": ["application/xml"],
              "responses": {"200": {"description": "ok", "schema": {"$ref": "#/definitions/Pet"}}}}}},
             "definitions": {"Pet": {"type": "object", "xml": {"name": "pet"}, "properties": {
               "id": {"type": "integer", "xml": {"attribute": true}},
               "tags": {"type": "array", "xml": {"wrapped": true}, "items": {"type": "string", "xml": {"name": "tag"}}}},
               "example": {"id": 1, "tags": ["a", "b"]}}}}
            """##
        let responder = OpenAPIResponder(contract: try OpenAPIReader().read(Array(text.utf8), source: "s.json"))
        let response = try #require(responder.answer(method: .get, path: "/p", headers: [:])).response
        #expect(Self.xml(response) == #"<pet id="1"><tags><tag>a</tag><tag>b</tag></tags></pet>"#)
    }

    @Test func anXMLObjectWithAKeyOpenAPIDoesNotDefineIsRefused() throws {
        #expect(throws: ContractError.self) {
            try Self.contract(
                "{}", components: #"{"P": {"type": "object", "xml": {"nam": "p"}}}"#)
        }
    }
}
