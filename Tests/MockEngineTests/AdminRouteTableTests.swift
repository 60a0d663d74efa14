import HTTPCore
import HTTPHandlerKit
import JSONKit
import Testing

@testable import AdminAPI
@testable import MockEngine

/// The admin API's route table, as values: which route a method and path reach, with what
/// variables, and what a path no route has is told.
@Suite struct AdminRouteTableTests {
    static func parts(_ path: String) -> [Substring] { path.split(separator: "/") }

    @Test func everyRouteIsDeclaredOnceAndReachedByItsOwnPath() {
        var seen = Set<String>()
        for route in AdminRouter.routes {
            let key = "\(route.method) \(route.declared)"
            #expect(seen.insert(key).inserted, "\(key) is declared twice")
            // The declared path with each variable filled in reaches this very route.
            let concrete = route.declared.replacing(/\{[a-z]+(\.\.\.)?\}/, with: "x")
            let found = AdminRouter.route(route.method, Self.parts(concrete))
            #expect(
                found?.0.declared == route.declared,
                "\(route.method) \(concrete) reached \(found?.0.declared ?? "none")")
        }
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var method: HTTPMethod
        var path: String
        var route: String?
        var parameters: [String: String] = [:]
        var testDescription: String { "\(method) \(path) → \(route ?? "no route") \(parameters)" }
    }

    static let rows = [
        Row(method: .get, path: "/mappings", route: "/mappings"),
        Row(method: .get, path: "/mappings/", route: "/mappings"),
        Row(method: .get, path: "/mappings/unmatched", route: "/mappings/unmatched"),
        Row(method: .get, path: "/mappings/abc", route: "/mappings/{id}", parameters: ["id": "abc"]),
        Row(method: .get, path: "/mappings/a%20b", route: "/mappings/{id}", parameters: ["id": "a b"]),
        // A literal route of another method leaves the path to the variable one.
        Row(method: .get, path: "/mappings/save", route: "/mappings/{id}", parameters: ["id": "save"]),
        Row(method: .post, path: "/mappings/save", route: "/mappings/save"),
        Row(
            method: .put, path: "/scenarios/door/state", route: "/scenarios/{name}/state", parameters: ["name": "door"]),
        Row(method: .get, path: "/files/a/b.json", route: "/files/{name...}", parameters: ["name": "a/b.json"]),
        Row(method: .get, path: "/files", route: "/files"),
        Row(method: .post, path: "/files/b.json", route: nil),
        Row(method: .get, path: "/requests/unmatched/near-misses", route: "/requests/unmatched/near-misses"),
        Row(method: .patch, path: "/settings/extended", route: "/settings/extended"),
        Row(method: .get, path: "/nothing", route: nil),
        Row(method: .get, path: "/", route: nil),
    ]

    @Test(arguments: rows)
    func aMethodAndPathReachOneRoute(row: Row) {
        let found = AdminRouter.route(row.method, Self.parts(row.path))
        #expect(found?.0.declared == row.route)
        if let found { #expect(found.1 == row.parameters) }
    }

    @Test func aPathNoRouteHasIsToldTheRoutesOfItsFirstSegment() throws {
        let handler = try StubDecisionTests.handler()
        let reply = handler.reply(to: HTTPServerRequest(method: .post, target: "/__admin/recordings/pause"))
        let response = try #require(reply.response())
        #expect(response.status.code == 404)
        let errors = try JSONValue(parsing: response.body)["errors"]?.arrayValue?.first?["title"]?.stringValue
        #expect(
            errors
                == "No admin route POST /__admin/recordings/pause; recordings has POST start, POST stop, GET status and POST snapshot"
        )
        let other = try #require(
            handler.reply(to: HTTPServerRequest(method: .get, target: "/__admin/nothing")).response())
        let title = try JSONValue(parsing: other.body)["errors"]?.arrayValue?.first?["title"]?.stringValue
        #expect(title == "No admin route GET /__admin/nothing")
    }
}
