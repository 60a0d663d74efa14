import JSONKit
import MockEngine
import SQLiteKit
import TestSupport
import Testing

@testable import OpenAPIMock

/// `--state-file` refusing a reset: the store and the file keep what they held, and every
/// admin route that resets the document's state answers a 500 naming the file and SQLite's
/// reason. The file is made to refuse by a trigger another connection adds (the tests run as
/// root, whom a read-only file mode does not stop).
@Suite struct StateFileResetTests {
    static let refusal = "petkit test: deletions refused"

    /// Makes the file refuse every deletion of a resource; the returned function lifts it.
    static func refuseDeletions(_ path: String) throws -> () throws -> Void {
        let connection = try SQLiteConnection(path: path)
        try connection.execute(
            "CREATE TRIGGER refuse BEFORE DELETE ON resources BEGIN SELECT RAISE(ABORT, '\(refusal)'); END")
        return { try connection.execute("DROP TRIGGER refuse") }
    }

    @Test func aRefusedResetThrowsNamingTheFileAndChangesNothing() throws {
        let folder = try TemporaryDirectory(prefix: "state-reset")
        defer { folder.remove() }
        let path = folder.file("state.sqlite")
        let store = try StateFileTests.store(path)
        #expect(try store.insert(["id": 3, "name": "saw"], id: "3", in: "/things"))
        let lift = try Self.refuseDeletions(path)
        for collection in [nil, "/things"] {
            do {
                _ = try store.reset(collection: collection)
                Issue.record("the reset of \(collection ?? "everything") went through")
            } catch {
                #expect(error.file == path && error.reason.contains(Self.refusal), "\(error)")
                #expect(error.description.contains("'\(path)'"))
            }
            #expect(StateFileTests.names(store) == ["hammer", "kite", "saw"], "the store is as it was")
        }
        #expect(StateFileTests.names(try StateFileTests.store(path)) == ["hammer", "kite", "saw"], "and the file")
        try lift()
        #expect(try store.reset())
        #expect(StateFileTests.names(store) == ["hammer", "kite"])
    }

    @Test(arguments: [
        ("POST", "/__admin/reset"), ("POST", "/__admin/scenarios/reset"), ("DELETE", "/__admin/petmock/state"),
        ("DELETE", "/__admin/petmock/state/things"),
    ])
    func theAdminRoutesAnswerA500(method: String, route: String) throws {
        let folder = try TemporaryDirectory(prefix: "state-reset")
        defer { folder.remove() }
        let path = folder.file("state.sqlite")
        let responder = try OpenAPIResponder(contract: try StatefulResourceTests.contract(), stateFile: path)
        let handler = try GeneratedStubsTests.handler(stubs: nil, fallback: responder)
        let created = try handler.answer(
            "POST", "/v1/things", headers: StatefulResourceTests.json, body: #"{"name":"saw"}"#)
        #expect(created.status == 201)
        let lift = try Self.refuseDeletions(path)
        let refused = try handler.answer(method, route)
        #expect(refused.status == 500, "\(refused.text)")
        let title = try JSONValue(parsing: refused.body)["errors"]?[0]?["title"]?.stringValue ?? ""
        #expect(title.contains("'\(path)'") && title.contains(Self.refusal), "\(title)")
        let listed = try JSONValue(parsing: try handler.answer("/v1/things").body)
        #expect(listed.arrayValue?.count == 3, "nothing was reset: \(listed)")
        try lift()
        #expect(try handler.answer(method, route).status == 200)
        #expect(try JSONValue(parsing: try handler.answer("/v1/things").body).arrayValue?.count == 2)
    }
}
