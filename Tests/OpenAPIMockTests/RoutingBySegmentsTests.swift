import APISchema
import HTTPCore
import OpenAPIMock
import Testing

/// A path is tried against the templates of as many segments as it has: what routing
/// decides does not change with that (a literal before a variable, 405 with the methods
/// of the path's own templates, a path outside the root or deeper than any template).
@Suite struct RoutingBySegmentsTests {
    static let document = """
        {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
         "paths": {
          "/items": {"get": {"responses": {"200": {"description": "list"}}}},
          "/items/new": {"get": {"responses": {"201": {"description": "the literal"}}}},
          "/items/{id}": {"get": {"responses": {"202": {"description": "one"}}},
                          "delete": {"responses": {"204": {"description": "gone"}}}},
          "/items/{id}/tags/{tag}": {"put": {"responses": {"203": {"description": "tagged"}}}}}}
        """

    let responder: OpenAPIResponder

    init() throws {
        let contract = try OpenAPIReader().read(Array(Self.document.utf8), source: "items.json")
        responder = OpenAPIResponder(contract: contract)
    }

    @Test(arguments: [
        (HTTPMethod.get, "/items", 200), (.get, "/items/new", 201), (.get, "/items/7", 202), (.delete, "/items/7", 204),
        (.put, "/items/7/tags/red", 203), (.post, "/items/7", 405), (.get, "/items/7/tags/red", 405),
        (.get, "/items/7/tags", 404), (.get, "/items/7/tags/red/more/and/more", 404), (.get, "/", 404),
    ])
    func routes(method: HTTPMethod, path: String, status: Int) throws {
        let response = try #require(responder.answer(method: method, path: path, headers: [:])).response
        #expect(response.status.code == status)
    }

    @Test func aPathNotUnderTheRootIsNotTheDocuments() {
        #expect(responder.answer(method: .options, path: "*", headers: [:]) == nil)
    }
}
