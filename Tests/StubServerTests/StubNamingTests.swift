import JSONKit
import TestSupport
import Testing

@testable import MockEngine
@testable import StubServerKit

/// Stubs named as a person wrote them: by name and file, never by a bare UUID.
@Suite struct StubNamingTests {
    static let items = #"{"name": "get items", "request": {"method": "GET", "url": "/items"}, "response": {}}"#

    @Test func theJournalSaysWhenNoStubMatched() throws {
        let stubs = try TemporaryStubs()
        stubs.write("mappings/items.json", Self.items)
        let server = try makeServer(stubs: stubs.root)
        _ = try server.answer("/items")
        _ = try server.answer("/nowhere")
        let events = try server.answer("/__admin/requests").json["requests"]?.arrayValue ?? []
        let labels = Dictionary(
            uniqueKeysWithValues: events.map { ($0["request"]?["url"]?.stringValue ?? "", $0["petmockStubLabel"]) })
        #expect(labels["/nowhere"] == "no stub matched")
        #expect(labels["/items"] == "'get items' (mappings/items.json)")
    }

    @Test func nearMissesGiveTheNameAndTheFile() throws {
        let stubs = try TemporaryStubs()
        stubs.write("mappings/items.json", Self.items)
        let server = try makeServer(stubs: stubs.root)
        let text = try server.answer("/item")
        #expect(text.text.contains("Closest stub: 'get items' (mappings/items.json), distance"), "\(text.text)")
        let json = try server.answer("/item", headers: [("Accept", "application/json")])
        let closest = try #require(json.json["closestStubs"]?[0])
        #expect(closest["label"] == "'get items' (mappings/items.json)")
        #expect(closest["file"] == .string(stubs.root + "/mappings/items.json"))
        #expect(closest["id"]?.stringValue != nil)
        let misses = try server.answer("/__admin/requests/unmatched/near-misses").json["nearMisses"]?.arrayValue ?? []
        let miss = try #require(misses.first)
        #expect(miss["label"] == "'get items' (mappings/items.json)")
        #expect(miss["file"] == .string(stubs.root + "/mappings/items.json"))
        #expect(miss["stubMapping"]?["id"]?.stringValue != nil)
    }

    @Test func aRequestOnlyARefusedMappingWouldMatchNamesItsFile() throws {
        let stubs = try TemporaryStubs()
        stubs.write("mappings/items.json", Self.items)
        stubs.write(
            "mappings/broken.json", #"{"request": {"method": "GET", "url": "/orders"}, "response": {"status": "x"}}"#)
        let server = try makeServer(stubs: stubs.root)
        let text = try server.answer("/orders")
        #expect(text.status == 404)
        #expect(text.text.contains("mappings/broken.json"), "\(text.text)")
        #expect(!(try server.answer("/other").text.contains("broken.json")))
    }
}
