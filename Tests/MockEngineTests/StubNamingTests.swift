import JSONKit
import StubFormat
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

    /// A mapping refused at load, whatever refused it, is named with why when a request it
    /// would match comes, beside the stubs that did load.
    @Test(arguments: [
        (
            #"{"name": "orders", "request": {"method": "GET", "url": "/orders"}, "response": {"status": "x"}}"#,
            "$.response.status: expected "
        ),
        (
            #"{"name": "orders", "request": {"method": "GET", "url": "/orders", "headers": {"X-Trace": "#
                + #"{"matches": "(a"}}}, "response": {"status": 200}}"#,
            "$.request.headers['X-Trace'].matches: "
        ),
        (
            #"{"name": "orders", "id": "00000000-0000-0000-0000-000000000001", "request": {"method": "GET", "#
                + #""url": "/orders"}, "response": {}}"#,
            "$.id: "
        ),
    ])
    func aRefusedMappingIsNamedWithWhyItWasRefused(mapping: String, reason: String) throws {
        let stubs = try TemporaryStubs()
        stubs.write(
            "mappings/items.json",
            #"{"id": "00000000-0000-0000-0000-000000000001", "name": "get items", "#
                + #""request": {"method": "GET", "url": "/items"}, "response": {}}"#)
        stubs.write("mappings/orders.json", mapping)
        let server = try makeServer(stubs: stubs.root)
        let text = try server.answer("/orders").text
        #expect(
            text.contains(
                "Not loaded: 'orders' (mappings/orders.json) would match this request, but it was refused at load: "
                    + reason), "\(text)")
        #expect(text.contains("Closest stub: 'get items' (mappings/items.json)"), "\(text)")
        let json = try server.answer("/orders", headers: [("Accept", "application/json")]).json
        let refused = try #require(json["notLoaded"]?[0])
        #expect(refused["label"] == "'orders' (mappings/orders.json)")
        #expect(refused["matchesRequest"] == true)
        #expect(refused["reasons"]?[0]?["path"]?.stringValue.map { reason.hasPrefix($0 + ":") } == true)
    }

    /// With no stub loaded, the 404 says why: every mapping and mapping file refused at load,
    /// never WireMock's "no stub mappings" as though the folder were empty.
    @Test func withNoStubLoadedTheRefusedMappingsAreNamed() throws {
        let stubs = try TemporaryStubs()
        stubs.write(
            "mappings/orders.json",
            #"{"name": "orders", "request": {"method": "GET", "urlPattern": "/orders/(1"}, "response": {}}"#)
        stubs.write("mappings/truncated.json", #"{"request": {"method": "GET", "url": "/x""#)
        let server = try makeServer(stubs: stubs.root)
        let answer = try server.answer("/orders/1")
        #expect(answer.status == 404)
        #expect(!answer.text.contains("no stub mappings in this WireMock instance"), "\(answer.text)")
        #expect(answer.text.contains("No stubs are loaded."), "\(answer.text)")
        #expect(
            answer.text.contains("Refused at load: 'orders' (mappings/orders.json): $.request.urlPattern: "),
            "\(answer.text)")
        #expect(answer.text.contains("Refused at load: mappings/truncated.json: "), "\(answer.text)")
        let json = try server.answer("/orders/1", headers: [("Accept", "application/json")]).json
        let labels = json["notLoaded"]?.arrayValue?.map { $0["label"] } ?? []
        #expect(labels == ["'orders' (mappings/orders.json)", "mappings/truncated.json"])
        #expect(json["notLoaded"]?[0]?["matchesRequest"] == false)
    }

    /// A request naming a variant no stub has is labelled "unknown variant" in the journal, not
    /// "no stub matched", and listed under `/__admin/petmock/problems` beside the load problems.
    @Test func anUnknownVariantIsLabelledAndListedAsAProblem() throws {
        let stubs = try TemporaryStubs()
        stubs.write("mappings/items.json", Self.items)
        let server = try makeServer(stubs: stubs.root)
        for _ in 0..<2 { #expect(try server.answer("/items", headers: [("X-Petmock-Variant", "nope")]).status == 400) }
        let event = try #require(try server.answer("/__admin/requests").json["requests"]?[0])
        #expect(event["petmockStubLabel"] == "unknown variant")
        #expect(event["petmockProblem"]?["kind"] == "unknown variant")
        #expect(event["petmockProblem"]?["requested"] == "nope")
        let problems = try server.answer("/__admin/petmock/problems").json
        #expect(problems["problems"] == [])
        let listed = try #require(problems["requestProblems"]?[0])
        #expect(listed["kind"] == "unknown variant")
        #expect(listed["request"] == "GET /items")
        #expect(listed["count"] == 2)
        #expect(listed["message"]?.stringValue?.hasPrefix("Unknown variant 'nope'") == true)
        // Emptied with the journal.
        _ = try server.answer("DELETE", "/__admin/requests")
        #expect(try server.answer("/__admin/petmock/problems").json["requestProblems"] == [])
    }

    /// However many names a client makes up, the list of request problems stays bounded: the
    /// first ones kept, the rest counted.
    @Test func requestProblemsAreBounded() throws {
        let server = try makeServer(mappings: [try StubMapping(json: Self.items)])
        for index in 0..<105 { _ = try server.answer("/items", headers: [("X-Petmock-Variant", "nope\(index)")]) }
        let problems = try server.answer("/__admin/petmock/problems").json
        #expect(problems["requestProblems"]?.arrayValue?.count == 100)
        #expect(problems["requestProblems"]?[0]?["requested"] == "nope0")
        #expect(problems["requestProblemsOmitted"] == 5)
    }
}
