import APISchema
import HTTPCore
import HTTPHandlerKit
import JSONKit
import OpenAPIMock
import Testing

/// A path parameter's text is split on its style's separators as sent, and each item or member
/// decoded after: a separator the client escaped (`a%2Cb`, `;id=1%3B2`, `.a%2Eb`) belongs to
/// one value, and an escaped value is checked against its schema once decoded (`%31` is 1).
@Suite struct EscapedPathValueTests {
    static let document = #"""
        {"openapi": "3.1.0", "info": {"title": "escapes", "version": "1"},
         "paths": {
          "/one/{ids}": {"get": {"parameters": [
            {"name": "ids", "in": "path", "required": true,
             "schema": {"type": "array", "items": {"type": "string"}, "maxItems": 1}}],
            "responses": {"200": {"description": "ok"}}}},
          "/two/{ids}": {"get": {"parameters": [
            {"name": "ids", "in": "path", "required": true,
             "schema": {"type": "array", "items": {"type": "string", "enum": ["a", "b", "a,b"]}}}],
            "responses": {"200": {"description": "ok"}}}},
          "/ints/{ids}": {"get": {"parameters": [
            {"name": "ids", "in": "path", "required": true,
             "schema": {"type": "array", "items": {"type": "integer", "maximum": 5}}}],
            "responses": {"200": {"description": "ok"}}}},
          "/point/{id}": {"get": {"parameters": [
            {"name": "id", "in": "path", "required": true, "schema": {"type": "integer", "minimum": 1}}],
            "responses": {"200": {"description": "ok"}}}},
          "/word/{id}": {"get": {"parameters": [
            {"name": "id", "in": "path", "required": true, "style": "matrix",
             "schema": {"type": "string", "pattern": "^1;2$"}}], "responses": {"200": {"description": "ok"}}}},
          "/matrix/{ids}": {"get": {"parameters": [
            {"name": "ids", "in": "path", "required": true, "style": "matrix",
             "schema": {"type": "array", "items": {"type": "string"}, "maxItems": 1}}],
            "responses": {"200": {"description": "ok"}}}},
          "/each/{ids}": {"get": {"parameters": [
            {"name": "ids", "in": "path", "required": true, "style": "matrix", "explode": true,
             "schema": {"type": "array", "items": {"type": "string"}, "maxItems": 1}}],
            "responses": {"200": {"description": "ok"}}}},
          "/label/{ids}": {"get": {"parameters": [
            {"name": "ids", "in": "path", "required": true, "style": "label",
             "schema": {"type": "array", "items": {"type": "string"}, "maxItems": 1}}],
            "responses": {"200": {"description": "ok"}}}},
          "/dots/{ids}": {"get": {"parameters": [
            {"name": "ids", "in": "path", "required": true, "style": "label", "explode": true,
             "schema": {"type": "array", "items": {"type": "string"}, "maxItems": 1}}],
            "responses": {"200": {"description": "ok"}}}},
          "/pairs/{note}": {"get": {"parameters": [
            {"name": "note", "in": "path", "required": true,
             "schema": {"$ref": "#/components/schemas/Note"}}], "responses": {"200": {"description": "ok"}}}},
          "/assigned/{note}": {"get": {"parameters": [
            {"name": "note", "in": "path", "required": true, "explode": true,
             "schema": {"$ref": "#/components/schemas/Note"}}], "responses": {"200": {"description": "ok"}}}},
          "/shades/{note}": {"get": {"parameters": [
            {"name": "note", "in": "path", "required": true, "style": "matrix", "explode": true,
             "schema": {"$ref": "#/components/schemas/Note"}}], "responses": {"200": {"description": "ok"}}}}
         },
         "components": {"schemas": {"Note": {"type": "object", "required": ["text"], "additionalProperties": false,
           "properties": {"text": {"type": "string", "pattern": "^[^a-z]*$|^a[,;=]b$"}, "n": {"type": "integer"}}}}}}
        """#

    static func violations(_ target: String) throws -> [String] {
        let contract = try OpenAPIReader().read(Array(document.utf8), source: "escapes.json")
        let responder = OpenAPIResponder(contract: contract)
        let answer = try #require(responder.reply(to: HTTPServerRequest(method: .get, target: target)))
        #expect(answer.response.response.status.code == (answer.violations.isEmpty ? 200 : 400), "\(target)")
        return answer.violations.map(\.location)
    }

    static let rows: [(String, [String])] = [
        // simple: `,` between items, `%2C` inside one.
        ("/one/a%2Cb", []),
        ("/one/a,b", ["path.ids"]),
        ("/two/a%2Cb", []),
        ("/two/a,b", []),
        ("/two/a%2Cb,a", []),
        ("/two/a%2Cc", ["path.ids[0]"]),
        // Each item decoded, then read as its schema's kind.
        ("/ints/%31", []),
        ("/ints/%31,%35", []),
        ("/ints/%36", ["path.ids[0]"]),
        ("/ints/1,x%31", ["path.ids[1]"]),
        ("/point/%31", []),
        ("/point/%30", ["path.id"]),
        // matrix: `;` between items, `%3B` inside one; the name may be escaped too.
        ("/word/;id=1%3B2", []),
        ("/word/;id=1;2", ["path.id"]),
        ("/word/;%69d=1%3B2", []),
        ("/matrix/;ids=a%2Cb", []),
        ("/matrix/;ids=a,b", ["path.ids"]),
        ("/each/;ids=a%3Bb", []),
        ("/each/;ids=a;ids=b", ["path.ids"]),
        // label: `.` or `,` between items, escaped inside one.
        ("/label/.a%2Cb", []),
        ("/label/.a,b", ["path.ids"]),
        ("/dots/.a%2Eb", []),
        ("/dots/.a.b", ["path.ids"]),
        // Objects: names and values, `name=value` items.
        ("/pairs/text,a%2Cb", []),
        ("/pairs/text,a,b", ["path.note"]),
        ("/pairs/text,A,n,%37", []),
        ("/assigned/text=a%3Db", []),
        ("/assigned/text=a%2Cb,n=%31", []),
        ("/assigned/text=a,b", ["path.note"]),
        ("/shades/;text=a%3Bb;n=1", []),
        ("/shades/;text=a;b", ["path.note"]),
    ]

    @Test(arguments: rows) func anEscapedSeparatorStaysInItsValue(target: String, locations: [String]) throws {
        let found = try Self.violations(target)
        #expect(found.count == locations.count && zip(found, locations).allSatisfy { $0.hasPrefix($1) }, "\(found)")
    }
}
