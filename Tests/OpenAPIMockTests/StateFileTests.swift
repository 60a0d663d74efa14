import JSONKit
import SQLiteKit
import TestSupport
import Testing

@testable import OpenAPIMock

/// `--state-file`: the store kept in SQLite, read back by a new store on the same file.
@Suite struct StateFileTests {
    static let collections = ["/things", "/users/{userId}/orders"]
    static let seed: [(collection: String, items: [(id: String, value: JSONValue)])] = [
        ("/things", [("1", ["id": 1, "name": "hammer"]), ("2", ["id": 2, "name": "kite"])])
    ]

    static func store(_ path: String, limits: ResourceStore.Limits = ResourceStore.Limits()) throws -> ResourceStore {
        try ResourceStore(limits: limits, seed: seed, stateFile: path, collections: collections)
    }

    static func names(_ store: ResourceStore, _ collection: String = "/things") -> [JSONValue?] {
        store.page(of: collection, offset: 0, limit: 100).items.map { $0["name"] }
    }

    @Test func everyWriteIsThereForTheNextStore() throws {
        let folder = try TemporaryDirectory(prefix: "state")
        defer { folder.remove() }
        let path = folder.file("state.sqlite")
        do {
            let store = try Self.store(path)
            #expect(Self.names(store) == ["hammer", "kite"])
            let number = store.nextNumber(in: "/things")
            #expect(try store.insert(["id": .int(number), "name": "saw"], id: String(number), in: "/things"))
            #expect(try store.insert(["id": 4, "name": "drill"], id: "4", in: "/things"))
            #expect(try store.replace(["id": 1, "name": "big hammer"], id: "1", in: "/things"))
            #expect(try store.remove(id: "4", in: "/things"))
            #expect(try store.insert(["orderId": "a"], id: "a", in: "/users/7/orders"))
        }
        let again = try Self.store(path)
        // The order of creation stays, a replace keeps its place, a delete stays deleted.
        #expect(Self.names(again) == ["big hammer", "kite", "saw"])
        #expect(again.value(id: "a", in: "/users/7/orders") == ["orderId": "a"])
        #expect(again.summary().items == 4)
        #expect(again.summary().bytes == (try Self.store(path)).summary().bytes)
        // The sequence goes on past the deleted 4: an id is never given twice.
        #expect(again.nextNumber(in: "/things") == 5)
        #expect(again.seedProblems.isEmpty)
    }

    @Test func theExamplesSeedANewFileOnly() throws {
        let folder = try TemporaryDirectory(prefix: "state")
        defer { folder.remove() }
        let path = folder.file("state.sqlite")
        do {
            let store = try Self.store(path)
            #expect(try store.remove(id: "1", in: "/things"))
            #expect(try store.remove(id: "2", in: "/things"))
        }
        let again = try Self.store(path)
        #expect(again.summary().items == 0)
        // Emptied, the collection keeps its sequence.
        #expect(again.nextNumber(in: "/things") == 3)
    }

    @Test func aResetIsWrittenToTheFile() throws {
        let folder = try TemporaryDirectory(prefix: "state")
        defer { folder.remove() }
        let path = folder.file("state.sqlite")
        do {
            let store = try Self.store(path)
            #expect(try store.insert(["id": 3, "name": "saw"], id: "3", in: "/things"))
            #expect(try store.insert(["orderId": "a"], id: "a", in: "/users/7/orders"))
            #expect(try store.reset(collection: "/users/7/orders"))
        }
        do {
            let store = try Self.store(path)
            #expect(Self.names(store) == ["hammer", "kite", "saw"])
            #expect(store.page(of: "/users/7/orders", offset: 0, limit: 5).total == 0)
            #expect(try store.reset())
        }
        let again = try Self.store(path)
        #expect(Self.names(again) == ["hammer", "kite"])
        #expect(again.summary().items == 2)
    }

    @Test func anotherDocumentsFileIsRefused() throws {
        let folder = try TemporaryDirectory(prefix: "state")
        defer { folder.remove() }
        let path = folder.file("state.sqlite")
        _ = try Self.store(path)
        #expect(throws: StateFileError.otherDocument(path: path, expected: ["/pets"], found: Self.collections)) {
            try ResourceStore(stateFile: path, collections: ["/pets"])
        }
        let message = StateFileError.otherDocument(path: path, expected: ["/pets"], found: Self.collections)
            .description
        #expect(message.hasPrefix("state file '\(path)': it holds another document's collections"))
    }

    @Test(arguments: [
        ("not SQLite", Array("this is not a database, only text that is long enough to be read".utf8)),
        ("an empty page", [UInt8](repeating: 0, count: 4096)),
    ])
    func aFileThatIsNotSQLiteIsRefused(_ name: String, _ bytes: [UInt8]) throws {
        let folder = try TemporaryDirectory(prefix: "state")
        defer { folder.remove() }
        try folder.write(bytes, to: "state.sqlite")
        let path = folder.file("state.sqlite")
        #expect {
            try ResourceStore(stateFile: path, collections: Self.collections)
        } throws: { error in
            guard case .corrupt(let named, _)? = error as? StateFileError else { return false }
            return named == path
        }
    }

    @Test func anotherApplicationsDatabaseIsRefused() throws {
        let folder = try TemporaryDirectory(prefix: "state")
        defer { folder.remove() }
        // SQLite, but not a state file.
        let path = folder.file("pets.sqlite")
        try SQLiteConnection(path: path).execute("CREATE TABLE pets (id INTEGER PRIMARY KEY, name TEXT)")
        #expect {
            try ResourceStore(stateFile: path, collections: Self.collections)
        } throws: { error in
            guard case .corrupt(_, let reason)? = error as? StateFileError else { return false }
            return reason.contains("expected the tables meta, resources and sequences")
        }
    }

    @Test func aFolderThatDoesNotExistIsRefused() throws {
        let folder = try TemporaryDirectory(prefix: "state")
        defer { folder.remove() }
        let path = folder.file("missing/state.sqlite")
        #expect {
            try ResourceStore(stateFile: path, collections: Self.collections)
        } throws: { error in
            guard case .unopenable(let named, _)? = error as? StateFileError else { return false }
            return named == path
        }
    }

    @Test func aFileHoldingMoreThanTheLimitsIsRefused() throws {
        let folder = try TemporaryDirectory(prefix: "state")
        defer { folder.remove() }
        let path = folder.file("state.sqlite")
        do {
            let store = try Self.store(path)
            #expect(try store.insert(["id": 3], id: "3", in: "/things"))
        }
        #expect(throws: StateFileError.overLimits(path: path, reason: "the store holds its limit of 2 resources")) {
            try Self.store(path, limits: ResourceStore.Limits(collections: 10, items: 2, bytes: 1 << 20))
        }
    }

    /// N clients x M creates through a responder on a state file: N x M distinct ids, all of
    /// them in the file.
    @Test func concurrentCreatesAreAllWritten() async throws {
        let folder = try TemporaryDirectory(prefix: "state")
        defer { folder.remove() }
        let path = folder.file("state.sqlite")
        let contract = try StatefulResourceTests.contract()
        let clients = 8
        let creates = 25
        do {
            let responder = try OpenAPIResponder(contract: contract, stateFile: path)
            let handler = try GeneratedStubsTests.handler(stubs: nil, fallback: responder)
            let ids = try await withThrowingTaskGroup(of: [Int64].self) { group in
                for client in 0..<clients {
                    group.addTask {
                        var ids: [Int64] = []
                        for number in 0..<creates {
                            let created = try handler.answer(
                                "POST", "/v1/things", headers: StatefulResourceTests.json,
                                body: #"{"name":"c\#(client)-\#(number)"}"#)
                            ids.append(try #require(try JSONValue(parsing: created.body)["id"]?.intValue))
                        }
                        return ids
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(Set(ids).count == clients * creates)
        }
        let again = try OpenAPIResponder(contract: contract, stateFile: path)
        #expect(again.store?.summary().items == clients * creates + 2)
    }
}
