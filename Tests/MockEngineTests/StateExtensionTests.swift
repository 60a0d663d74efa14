import HTTPCore
import HTTPHandlerKit
import JSONKit
import LinearRegex
import TestSupport
import Testing

@testable import MockEngine
@testable import StubFormat
@testable import StubServerKit

/// The state extension served: the example todo folder end to end through a `StubServer`'s
/// handler (no socket), the store's changes and limits as values, the matcher's decisions,
/// and the admin routes and resets.
@Suite struct StateExtensionTests {
    /// `Examples/StateExtension`, a todo API in WireMock's format.
    static let example: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path + "/Examples/StateExtension"
    }()

    static func json(_ response: RawResponse) -> JSONValue { (try? JSONValue(parsing: response.body)) ?? .null }

    @Test func theTodoFolderCreatesReadsListsAndDeletes() throws {
        let server = try makeServer(stubs: Self.example)
        #expect(server.loadProblems.isEmpty, "\(server.loadProblems)")
        let created = try server.answer("POST", "/todos", body: #"{"title": "milk"}"#)
        #expect(created.status == 201)
        let id = try #require(Self.json(created)["id"]?.stringValue)
        _ = try server.answer("POST", "/todos", body: #"{"title": "eggs"}"#)
        // Written by the request before: read by the next, with no wait.
        let read = try server.answer("/todos/\(id)")
        #expect(read.status == 200 && Self.json(read) == ["id": .string(id), "title": "milk"], "\(read.text)")
        let listed = Self.json(try server.answer("/todos"))
        #expect(listed.arrayValue?.compactMap { $0["title"]?.stringValue } == ["milk", "eggs"], "\(listed)")
        #expect(try server.answer("DELETE", "/todos/\(id)").status == 204)
        #expect(try server.answer("/todos/\(id)").status == 404, "hasNotContext answers once it is deleted")
        #expect(try server.answer("DELETE", "/todos/\(id)").status == 404)
        #expect(Self.json(try server.answer("/todos")).arrayValue?.count == 1)
        #expect(server.admin.stateContexts().map(\.name).contains("todos"))
    }

    @Test func adminRoutesListShowAndDeleteContexts() throws {
        let server = try makeServer(stubs: Self.example)
        let id = try #require(
            Self.json(try server.answer("POST", "/todos", body: #"{"title": "a"}"#))["id"]?.stringValue)
        let listed = Self.json(try server.answer("/__admin/petmock/contexts"))
        #expect(listed["total"] == 2)
        let one = Self.json(try server.answer("/__admin/petmock/contexts/todos"))
        #expect(one["listSize"] == 1 && one["updateCount"] == 1, "\(one)")
        #expect(try server.answer("/__admin/petmock/contexts/nope").status == 404)
        #expect(try server.answer("DELETE", "/__admin/petmock/contexts/\(id)").status == 200)
        #expect(try server.answer("/todos/\(id)").status == 404)
        #expect(try server.answer("DELETE", "/__admin/petmock/contexts/\(id)").status == 404)
        #expect(try server.answer("DELETE", "/__admin/petmock/contexts").status == 200)
        #expect(server.admin.stateContexts().isEmpty)
    }

    @Test(arguments: ["/__admin/reset", "/__admin/scenarios/reset"])
    func resetsDeleteEveryContext(route: String) throws {
        let server = try makeServer(stubs: Self.example)
        _ = try server.answer("POST", "/todos", body: #"{"title": "a"}"#)
        #expect(!server.admin.stateContexts().isEmpty)
        #expect(try server.answer("POST", route).status == 200)
        #expect(server.admin.stateContexts().isEmpty)
    }

    /// The store's changes as values: each write's update count, the list operations, the
    /// deletions by names and by pattern.
    @Test func changesApplyAsTheExtensionDescribes() throws {
        let store = StateContextStore()
        #expect(store.apply(.write(context: "c", properties: [("a", "1")])) == nil)
        #expect(store.apply(.write(context: "c", properties: [("b", "2"), ("a", "3")])) == nil)
        var context = try #require(store.stateContext(named: "c"))
        #expect(context.properties == ["a": "3", "b": "2"] && context.updateCount == 2)
        for (id, first) in [("x", false), ("y", false), ("w", true), ("z", false)] {
            #expect(store.apply(.add(context: "c", entry: ["id": .string(id)], first: first)) == nil)
        }
        func ids() -> [String] { store.stateContext(named: "c")?.list.compactMap { $0["id"]?.stringValue } ?? [] }
        #expect(ids() == ["w", "x", "y", "z"])
        _ = store.apply(.deleteEntry(context: "c", .first))
        _ = store.apply(.deleteEntry(context: "c", .last))
        #expect(ids() == ["x", "y"])
        _ = store.apply(.deleteEntry(context: "c", .index(-1)))
        _ = store.apply(.deleteEntry(context: "c", .index(5)))
        #expect(ids() == ["x"])
        _ = store.apply(.deleteEntry(context: "c", .firstWhere(property: "id", equals: "x")))
        context = try #require(store.stateContext(named: "c"))
        #expect(context.list.isEmpty && context.updateCount == 10)
        for name in ["todo-1", "todo-2", "other"] { _ = store.apply(.write(context: name, properties: [("k", "v")])) }
        _ = store.apply(.deleteMatching(try LinearTimeRegex("todo-.*")))
        #expect(store.all().map(\.name) == ["c", "other"])
        _ = store.apply(.deleteContexts(["c", "missing"]))
        #expect(store.all().map(\.name) == ["other"])
        store.reset()
        #expect(store.count == 0 && store.byteCount == 0)
    }

    /// Each limit refuses the change whole; deleting gives the room back.
    @Test func limitsRefuseWritesAndDeletionsFreeRoom() throws {
        let store = StateContextStore(limits: StateLimits(maximumContexts: 2, maximumListEntries: 2, maximumBytes: 64))
        #expect(store.apply(.write(context: "a", properties: [("k", "v")])) == nil)
        #expect(store.apply(.write(context: "b", properties: [("k", "v")])) == nil)
        #expect(store.apply(.write(context: "c", properties: [("k", "v")]))?.contains("2 contexts") == true)
        #expect(store.stateContext(named: "c") == nil)
        #expect(store.apply(.add(context: "a", entry: ["i": "1"], first: false)) == nil)
        #expect(store.apply(.add(context: "a", entry: ["i": "2"], first: false)) == nil)
        #expect(store.apply(.add(context: "a", entry: ["i": "3"], first: false))?.contains("2 entries") == true)
        let big = String(repeating: "x", count: 64)
        #expect(store.apply(.write(context: "b", properties: [("k", big)]))?.contains("64 bytes") == true)
        #expect(store.stateContext(named: "b")?.properties["k"] == "v", "a refused write changes nothing")
        let before = store.byteCount
        store.delete(named: "a")
        #expect(store.byteCount < before)
        #expect(store.apply(.write(context: "c", properties: [("k", "v")])) == nil)
    }

    /// A refused write keeps the stub's answer, is a request problem in the journal, and is
    /// told to the server's subscribers once.
    @Test func aRefusedWriteIsJournaledAndToldOnce() async throws {
        let folder = try TemporaryStubs()
        folder.write(
            "mappings/m.json",
            #"""
            {"request": {"method": "POST", "urlPath": "/things"}, "response": {"status": 201},
             "serveEventListeners": [{"name": "recordState",
               "parameters": {"context": "{{randomValue type='UUID'}}", "state": {"a": "b"}}}]}
            """#)
        let server = try makeServer(stubs: folder.root) { $0.stateLimits = StateLimits(maximumContexts: 1) }
        let events = server.events()
        #expect(try server.answer("POST", "/things").status == 201)
        #expect(server.admin.requests().first?.problem == nil)
        #expect(try server.answer("POST", "/things").status == 201, "the answer stays the stub's")
        #expect(try server.answer("POST", "/things").status == 201)
        let problems = server.admin.requests().compactMap(\.problem)
        #expect(problems.count == 2 && problems.allSatisfy { $0.kind == .stateRefused }, "\(problems)")
        #expect(problems.first?.message.contains("1 contexts (the limit)") == true, "\(problems)")
        let told = try await firstEvent(events) { if case .stateRefused = $0 { true } else { false } }
        #expect(told.description.contains("recordState 1 of the stub"))
        #expect(server.admin.stateContexts().count == 1)
    }

    /// The matcher's decisions over one store, as a table: parameters, and whether a request
    /// for `/t/c1` matches.
    @Test(arguments: [
        (#"{"hasContext": "{{request.pathSegments.[1]}}"}"#, true),
        (#"{"hasContext": "c2"}"#, false),
        (#"{"hasNotContext": "c2"}"#, true),
        (#"{"hasNotContext": "{{request.pathSegments.[1]}}"}"#, false),
        (#"{"hasContext": "c1", "hasProperty": "a"}"#, true),
        (#"{"hasContext": "c1", "hasProperty": "z"}"#, false),
        (#"{"hasContext": "c1", "hasNotProperty": "z"}"#, true),
        (#"{"hasContext": "c1", "hasNotProperty": "a"}"#, false),
        (#"{"hasContext": "c1", "updateCountEqualTo": "2"}"#, true),
        (#"{"hasContext": "c1", "updateCountEqualTo": 1}"#, false),
        (#"{"hasContext": "c1", "updateCountLessThan": "3"}"#, true),
        (#"{"hasContext": "c1", "updateCountMoreThan": "2"}"#, false),
        (#"{"hasContext": "c1", "listSizeEqualTo": "1"}"#, true),
        (#"{"hasContext": "c1", "listSizeLessThan": "1"}"#, false),
        (#"{"hasContext": "c1", "listSizeMoreThan": "0", "updateCountMoreThan": "1"}"#, true),
        (#"{"hasContext": "c1", "listSizeMoreThan": "not a number"}"#, false),
    ])
    func matcherDecisions(parameters: String, matches: Bool) throws {
        let mapping = try StubMapping(
            json:
                #"{"request": {"urlPathPattern": "/t/.*", "customMatcher": {"name": "state-matcher", "parameters": \#(parameters)}}, "response": {"status": 200}}"#
        )
        let (compiled, problems) = StubCompiler(filesRoot: nil).compile(mapping, sequence: 0, origin: .code, file: "")
        let stub = try #require(compiled, "\(problems)")
        let scenarios = ScenarioStore()
        _ = scenarios.contexts.apply(.write(context: "c1", properties: [("a", "1")]))
        _ = scenarios.contexts.apply(.add(context: "c1", entry: ["i": "1"], first: false))
        let request = MatchableRequest(method: .get, target: "/t/c1", headers: HTTPHeaders(), body: [])
        #expect(stub.matches(request, scenarios: scenarios) == matches)
        if !matches {
            let criteria = stub.criteria(for: request, scenarios: scenarios)
            #expect(criteria.last?.name == "state" && criteria.last?.matched == false, "\(criteria)")
        }
    }

    /// Listeners run in order: the second sees the first's write, and `state` in a listener
    /// reads the state before its own change.
    @Test func listenersRunInOrderAndReadThePreviousState() throws {
        let folder = try TemporaryStubs()
        folder.write(
            "mappings/m.json",
            #"""
            {"request": {"method": "PUT", "urlPath": "/name"}, "response": {"status": 200, "body": "ok"},
             "serveEventListeners": [
               {"name": "recordState", "parameters": {"context": "n",
                 "state": {"name": "{{request.body}}", "previous": "{{state context='n' property='name' default='none'}}"}}},
               {"name": "recordState", "parameters": {"context": "log",
                 "list": {"addFirst": {"seen": "{{state context='n' property='name'}}", "status": "{{response.status}}"}}}},
               {"name": "deleteState", "parameters": {"context": "log", "list": {"deleteIndex": "{{request.headers.X-Drop}}"}}}
             ]}
            """#)
        let server = try makeServer(stubs: folder.root)
        #expect(try server.answer("PUT", "/name", headers: [("X-Drop", "9")], body: "a").status == 200)
        #expect(try server.answer("PUT", "/name", headers: [("X-Drop", "9")], body: "b").status == 200)
        let n = try #require(server.admin.stateContext(named: "n"))
        #expect(n.properties == ["name": "b", "previous": "a"] && n.updateCount == 2)
        let log = try #require(server.admin.stateContext(named: "log"))
        #expect(log.list == [["seen": "b", "status": "200"], ["seen": "a", "status": "200"]])
        #expect(try server.answer("PUT", "/name", headers: [("X-Drop", "-1")], body: "c").status == 200)
        #expect(server.admin.stateContext(named: "log")?.list.map { $0["seen"] } == ["c", "b"])
        // An index that does not render as a number changes nothing and is a request problem.
        #expect(try server.answer("PUT", "/name", headers: [("X-Drop", "last")], body: "d").status == 200)
        #expect(server.admin.requests().first?.problem?.message.contains("not an integer") == true)
    }

    @Test func aTemplateErrorInAListenerIsALoadProblemAtItsPath() throws {
        let folder = try TemporaryStubs()
        folder.write(
            "mappings/m.json",
            #"""
            {"request": {"urlPath": "/a"}, "response": {"status": 200},
             "serveEventListeners": [{"name": "recordState", "parameters": {"context": "c", "state": {"a": "{{nope 1}}"}}},
               {"name": "webhook", "parameters": {"url": "http://127.0.0.1:1/"}},
               {"name": "deleteState", "parameters": {"contextsMatching": "("}}]}
            """#)
        let report = try StubLoader(root: folder.root).load()
        #expect(report.mappings.isEmpty)
        #expect(
            Set(report.problems.filter(\.isError).map(\.path))
                == [
                    "$.serveEventListeners[0].parameters.state.a",
                    "$.serveEventListeners[2].parameters.contextsMatching",
                ],
            "\(report.problems)")
    }

    /// A proxy stub's listeners load and run on the upstream's answer (`ProxyStateTests`).
    @Test func aProxyStubWithStateListenersLoads() throws {
        let mapping = try StubMapping(
            json:
                #"{"request": {"urlPath": "/a"}, "response": {"proxyBaseUrl": "http://127.0.0.1:1"}, "serveEventListeners": [{"name": "deleteState", "parameters": {"context": "c"}}]}"#
        )
        let (compiled, problems) = StubCompiler(filesRoot: nil).compile(mapping, sequence: 0, origin: .code, file: "")
        #expect(compiled?.stateListeners.count == 1)
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func anUntemplatedResponseReadingStateIsAWarning() throws {
        let mapping = try StubMapping(
            json:
                #"{"request": {"urlPath": "/a"}, "response": {"jsonBody": {"t": "{{state context='c' property='t'}}"}}}"#
        )
        let (compiled, problems) = StubCompiler(filesRoot: nil).compile(mapping, sequence: 0, origin: .code, file: "")
        #expect(compiled != nil)
        #expect(problems.map(\.path) == ["$.response.jsonBody"] && problems.allSatisfy { !$0.isError }, "\(problems)")
        let global = StubCompiler(filesRoot: nil, globalTemplating: true)
        #expect(global.compile(mapping, sequence: 0, origin: .code, file: "").problems.isEmpty)
    }

    /// A fault stub's listeners run too, with an empty `response.body`.
    @Test func aFaultStubsListenersRun() throws {
        let folder = try TemporaryStubs()
        folder.write(
            "mappings/m.json",
            #"""
            {"request": {"urlPath": "/drop"}, "response": {"fault": "CONNECTION_RESET_BY_PEER"},
             "serveEventListeners": [{"name": "recordState",
               "parameters": {"context": "drops", "state": {"body": "[{{response.body}}]"}}}]}
            """#)
        let server = try makeServer(stubs: folder.root)
        #expect(throws: RawClientError.self) { try server.answer("/drop") }
        #expect(server.admin.stateContext(named: "drops")?.properties == ["body": "[]"])
    }

    /// Stubs told apart by their state matchers alone both answer: neither hides the other.
    @Test func stateMatchersKeepStubsApartForShadowing() throws {
        let folder = try TemporaryStubs()
        for (name, parameters) in [("found", #"{"hasContext": "c"}"#), ("missing", #"{"hasNotContext": "c"}"#)] {
            folder.write(
                "mappings/\(name).json",
                #"{"request": {"method": "GET", "urlPath": "/a", "customMatcher": {"name": "state-matcher", "parameters": \#(parameters)}}, "response": {"status": 200}}"#
            )
        }
        folder.write(
            "mappings/plain.json", #"{"request": {"method": "GET", "urlPath": "/b"}, "response": {"status": 200}}"#)
        folder.write(
            "mappings/plain-matched.json",
            #"{"request": {"method": "GET", "urlPath": "/b", "customMatcher": {"name": "state-matcher", "parameters": {"hasContext": "c"}}}, "response": {"status": 200}}"#
        )
        let report = try StubLoader(root: folder.root).load()
        let hidden = report.problems.filter { $0.message.contains("never answers") }
        #expect(hidden.count == 1 && hidden.first?.file.hasSuffix("plain-matched.json") == true, "\(report.problems)")
    }

    /// A context's name in the admin route is percent-decoded: any name can be shown or deleted.
    @Test func anyContextNameIsReachedPercentEncoded() throws {
        let folder = try TemporaryStubs()
        folder.write(
            "mappings/m.json",
            #"""
            {"request": {"method": "PUT", "urlPath": "/n"}, "response": {"status": 200},
             "serveEventListeners": [{"name": "recordState", "parameters": {"context": "{{request.body}}", "state": {"k": "v"}}}]}
            """#)
        let server = try makeServer(stubs: folder.root)
        #expect(try server.answer("PUT", "/n", body: "a b/c?").status == 200)
        let shown = try server.answer("/__admin/petmock/contexts/a%20b%2Fc%3F")
        #expect(shown.status == 200 && Self.json(shown)["context"] == "a b/c?", "\(shown.text)")
        #expect(try server.answer("DELETE", "/__admin/petmock/contexts/a%20b%2Fc%3F").status == 200)
        #expect(server.admin.stateContexts().isEmpty)
    }
}
