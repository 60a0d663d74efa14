import APISchema
import ContractKit
import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine
import OpenAPIMock
import Testing

/// Path parameters in `matrix` style (`;name=value`): a primitive, an array and an object,
/// exploded and not, each member or item read as its schema says and checked by the one
/// validator; and the text each style makes of a value (what petcontract's live verify sends),
/// which the check reads back as valid.
@Suite struct MatrixStyleTests {
    static let document = #"""
        {"openapi": "3.1.0", "info": {"title": "matrix", "version": "1"},
         "paths": {
          "/points/{id}": {"get": {"parameters": [
            {"name": "id", "in": "path", "required": true, "style": "matrix",
             "schema": {"type": "integer", "minimum": 1}}], "responses": {"200": {"description": "ok"}}}},
          "/lists/{ids}": {"get": {"parameters": [
            {"name": "ids", "in": "path", "required": true, "style": "matrix",
             "schema": {"type": "array", "items": {"type": "integer"}, "maxItems": 3}}],
            "responses": {"200": {"description": "ok"}}}},
          "/each/{ids}": {"get": {"parameters": [
            {"name": "ids", "in": "path", "required": true, "style": "matrix", "explode": true,
             "schema": {"type": "array", "items": {"type": "integer"}}}],
            "responses": {"200": {"description": "ok"}}}},
          "/colors/{color}": {"get": {"parameters": [
            {"name": "color", "in": "path", "required": true, "style": "matrix",
             "schema": {"$ref": "#/components/schemas/Color"}}], "responses": {"200": {"description": "ok"}}}},
          "/shades/{color}": {"get": {"parameters": [
            {"name": "color", "in": "path", "required": true, "style": "matrix", "explode": true,
             "schema": {"$ref": "#/components/schemas/Color"}}], "responses": {"200": {"description": "ok"}}}}
         },
         "components": {"schemas": {"Color": {"type": "object", "required": ["R"], "additionalProperties": false,
           "properties": {"R": {"type": "integer", "maximum": 255}, "G": {"type": "integer", "maximum": 255},
                          "name": {"type": "string"}}}}}}
        """#

    static func contract() throws -> Contract {
        try OpenAPIReader().read(Array(document.utf8), source: "matrix.json")
    }

    static func violations(_ target: String) throws -> [String] {
        let responder = OpenAPIResponder(contract: try contract())
        let answer = try #require(responder.reply(to: HTTPServerRequest(method: .get, target: target)))
        #expect(answer.response.response.status.code == (answer.violations.isEmpty ? 200 : 400))
        return answer.violations.map(\.location)
    }

    static let rows: [(String, [String])] = [
        ("/points/;id=5", []),
        ("/points/;id=0", ["path.id"]),
        ("/points/;id=x", ["path.id"]),
        ("/points/5", ["path.id"]),
        ("/points/;other=5", ["path.id"]),
        ("/points/;id=5;id=6", ["path.id"]),
        ("/lists/;ids=3,4,5", []),
        ("/lists/;ids=3,x", ["path.ids[1]"]),
        ("/lists/;ids=1,2,3,4", ["path.ids"]),
        ("/each/;ids=3;ids=4;ids=5", []),
        ("/each/;ids=3;ids=x", ["path.ids[1]"]),
        ("/each/;ids=3;other=4", ["path.ids"]),
        ("/colors/;color=R,100,G,200", []),
        ("/colors/;color=R,100,G,300", ["path.color.G"]),
        ("/colors/;color=G,200", ["path.color"]),
        ("/colors/;color=R,100,B,1", ["path.color"]),
        ("/colors/;color=R,100,G", ["path.color"]),
        ("/colors/R,100", ["path.color"]),
        ("/shades/;R=100;G=200", []),
        ("/shades/;R=100;G=two", ["path.color.G"]),
        ("/shades/;G=1", ["path.color"]),
        ("/shades/;R", ["path.color"]),
        ("/shades/;R=1;name=a%20b", []),
    ]

    @Test(arguments: rows) func eachMatrixValueIsReadAndChecked(target: String, locations: [String]) throws {
        let found = try Self.violations(target)
        #expect(found.count == locations.count && zip(found, locations).allSatisfy { $0.hasPrefix($1) }, "\(found)")
    }

    /// (style, explode, location, value, text): OpenAPI's style table, read by `text(of:)`.
    static let texts: [(String?, Bool?, ContractParameter.Location, String, String?)] = [
        ("matrix", nil, .path, "5", ";id=5"),
        ("matrix", nil, .path, #""""#, ";id"),
        ("matrix", nil, .path, "[3, 4, 5]", ";id=3,4,5"),
        ("matrix", true, .path, "[3, 4, 5]", ";id=3;id=4;id=5"),
        ("matrix", nil, .path, #"{"R": 100, "G": 200}"#, ";id=R,100,G,200"),
        ("matrix", true, .path, #"{"R": 100, "G": 200}"#, ";R=100;G=200"),
        ("label", nil, .path, "[3, 4]", ".3,4"),
        ("label", true, .path, "[3, 4]", ".3.4"),
        ("label", true, .path, #"{"R": 1}"#, ".R=1"),
        (nil, nil, .path, "[3, 4]", "3,4"),
        (nil, true, .header, #"{"R": 1, "G": 2}"#, "R=1,G=2"),
        (nil, nil, .header, #"{"R": 1, "G": 2}"#, "R,1,G,2"),
        (nil, false, .query, "[3, 4]", "3,4"),
        (nil, nil, .query, "[3, 4]", nil),
        ("spaceDelimited", false, .query, "[3, 4]", "3 4"),
        ("pipeDelimited", false, .query, "[3, 4]", "3|4"),
        (ContractParameter.tabDelimited, false, .query, "[3, 4]", "3\t4"),
        ("deepObject", nil, .query, #"{"R": 1}"#, nil),
        ("matrix", nil, .path, "[[1]]", nil),
        ("matrix", nil, .path, #""a b""#, ";id=a%20b"),
    ]

    @Test(arguments: texts)
    func eachStyleMakesItsText(
        style: String?, explode: Bool?, location: ContractParameter.Location, value: String, text: String?
    ) throws {
        var parameter = ContractParameter(name: "id", location: location)
        parameter.style = style
        parameter.explode = explode
        let encode: (String) -> String = { $0.percentEncoded() }
        #expect(parameter.text(of: try JSONValue(parsing: Array(value.utf8)), encode: encode) == text)
    }

    /// Every documented example value, made into its matrix text, reads back as valid.
    @Test(arguments: [
        ("/points/{id}", "7"), ("/lists/{ids}", "[1, 2]"), ("/each/{ids}", "[1, 2, 3]"),
        ("/colors/{color}", #"{"R": 1, "G": 2, "name": "a b"}"#), ("/shades/{color}", #"{"R": 1, "name": "x y"}"#),
    ])
    func whatIsMadeIsAccepted(path: String, value: String) throws {
        let contract = try Self.contract()
        let operation = try #require(contract.operation(named: "GET \(path)"))
        let parameter = try #require(operation.parameters.first)
        let text = try #require(
            parameter.text(of: try JSONValue(parsing: Array(value.utf8)), encode: { $0.percentEncoded() }))
        let target = path.replacing("{\(parameter.name)}", with: text)
        #expect(try Self.violations(target) == [], "\(target)")
    }
}
