import JSONKit
import TestSupport
import Testing

@testable import MockEngine
@testable import StubServerKit

/// The state extension's contexts expire a lifetime after their last write, on the engine's
/// clock: as values over a store on a `ManualClock`, and served through a `StubServer`'s
/// handler on the same clock. No sleep: the tests move the clock.
@Suite struct StateExpiryTests {
    static let hour = Duration.seconds(3600)

    static func store(_ time: ManualClock, limits: StateLimits = .standard) -> StateContextStore {
        StateContextStore(limits: limits, clock: time.clock)
    }

    @Test func aContextExpiresAnHourAfterItsLastWrite() throws {
        let time = ManualClock()
        let store = Self.store(time)
        #expect(StateLimits.standard.contextLifetime == Self.hour, "the extension's CaffeineStore: 60 minutes")
        #expect(store.apply(.write(context: "a", properties: [("k", "1")])) == nil)
        time.advance(by: .seconds(1800))
        #expect(store.apply(.write(context: "b", properties: [("k", "1")])) == nil)
        time.advance(by: .seconds(1799))
        #expect(store.stateContext(named: "a") != nil, "59 min 59 s after its write")
        time.advance(by: .seconds(1))
        #expect(store.stateContext(named: "a") == nil, "an hour after its write")
        #expect(store.stateContext(named: "b") != nil)
        #expect(store.all().map(\.name) == ["b"])
        #expect(store.count == 1)
    }

    /// Each write starts the hour again; reading does not (the extension's
    /// `expireAfterWrite`). A list entry's deletion is a write.
    @Test func writesRenewAContextAndReadsDoNot() throws {
        let time = ManualClock()
        let store = Self.store(time)
        #expect(store.apply(.add(context: "c", entry: ["i": "1"], first: false)) == nil)
        #expect(store.apply(.add(context: "c", entry: ["i": "2"], first: false)) == nil)
        time.advance(by: .seconds(3000))
        #expect(store.apply(.write(context: "c", properties: [("k", "v")])) == nil)
        time.advance(by: .seconds(3000))
        #expect(store.stateContext(named: "c")?.updateCount == 3, "the write renewed it")
        #expect(store.apply(.deleteEntry(context: "c", .first)) == nil)
        time.advance(by: .seconds(3599))
        #expect(store.stateContext(named: "c")?.list == [["i": "2"]], "the deletion renewed it")
        time.advance(by: .seconds(1))
        #expect(store.stateContext(named: "c") == nil, "reading renewed nothing")
    }

    /// A write to an expired context starts a new one: its old properties, list and count are gone.
    @Test func aWriteAfterExpiryStartsAFreshContext() throws {
        let time = ManualClock()
        let store = Self.store(time)
        _ = store.apply(.write(context: "c", properties: [("a", "1")]))
        _ = store.apply(.add(context: "c", entry: ["i": "1"], first: false))
        time.advance(by: Self.hour)
        #expect(store.apply(.write(context: "c", properties: [("b", "2")])) == nil)
        let context = try #require(store.stateContext(named: "c"))
        #expect(context.properties == ["b": "2"] && context.list.isEmpty && context.updateCount == 1)
        #expect(store.apply(.deleteEntry(context: "d", .first)) == nil, "no context: nothing to delete")
    }

    /// Expired contexts give their room back: a store at its limit of contexts takes a new one
    /// once the old have expired, and its bytes count only the live ones.
    @Test func expiredContextsMakeRoom() throws {
        let time = ManualClock()
        let store = Self.store(time, limits: StateLimits(maximumContexts: 3, contextLifetime: .seconds(10)))
        for name in ["a", "b", "c"] { #expect(store.apply(.write(context: name, properties: [("k", "v")])) == nil) }
        #expect(store.apply(.write(context: "d", properties: [("k", "v")]))?.contains("3 contexts") == true)
        time.advance(by: .seconds(10))
        #expect(store.apply(.write(context: "d", properties: [("k", "v")])) == nil)
        #expect(store.all().map(\.name) == ["d"])
        #expect(store.byteCount == "d".utf8.count + "k".utf8.count + "v".utf8.count)
    }

    /// A change deletes at most `sweepLimit` expired contexts before it is applied, oldest
    /// first, so no request pays for every context that expired; reading one finds it gone.
    @Test func eachChangeDeletesABoundedNumberOfExpiredContexts() throws {
        let time = ManualClock()
        let store = Self.store(time, limits: StateLimits(contextLifetime: .seconds(10)))
        let expiring = 3 * StateContextStore.sweepLimit
        for index in 0..<expiring { _ = store.apply(.write(context: "old-\(index)", properties: [("k", "v")])) }
        time.advance(by: .seconds(5))
        _ = store.apply(.write(context: "young", properties: [("k", "v")]))
        time.advance(by: .seconds(5))
        _ = store.apply(.write(context: "new", properties: [("k", "v")]))
        #expect(store.heldCount == expiring + 2 - StateContextStore.sweepLimit)
        #expect(store.stateContext(named: "old-\(expiring - 1)") == nil)
        #expect(store.heldCount == expiring + 1 - StateContextStore.sweepLimit, "the reader deleted the one it read")
        _ = store.apply(.deleteContexts(["none"]))
        _ = store.apply(.deleteContexts(["none"]))
        #expect(store.heldCount == 2, "the rest went with the next changes, oldest first")
        #expect(store.all().map(\.name) == ["new", "young"])
    }

    @Test func noLifetimeKeepsContexts() throws {
        let time = ManualClock()
        let store = Self.store(time, limits: StateLimits(contextLifetime: nil))
        _ = store.apply(.write(context: "c", properties: [("k", "v")]))
        time.advance(by: .seconds(10 * 365 * 24 * 3600))
        #expect(store.stateContext(named: "c") != nil)
    }

    /// Deleting a context in the middle of the write order, and renewing the oldest, keep the
    /// order right: what expires next is what was written least recently.
    @Test func deletionsAndRenewalsKeepTheWriteOrder() throws {
        let time = ManualClock()
        let store = Self.store(time, limits: StateLimits(contextLifetime: .seconds(10)))
        for name in ["a", "b", "c", "d"] {
            _ = store.apply(.write(context: name, properties: [("k", "v")]))
            time.advance(by: .seconds(1))
        }
        #expect(store.delete(named: "b"))
        _ = store.apply(.write(context: "a", properties: [("k", "w")]))
        _ = store.apply(.deleteContexts(["d"]))
        time.advance(by: .seconds(8))
        #expect(store.all().map(\.name) == ["a"], "c, written at 2 s, expired at 12 s; a renewed at 4 s")
        time.advance(by: .seconds(2))
        #expect(store.all().isEmpty)
        #expect(!store.delete(named: "a"), "an expired context is not there to delete")
    }

    /// Served: the todo folder on a hand-moved clock. A todo read within the hour is there; an
    /// hour after it was written, `hasContext` fails and the stub for a missing todo answers.
    @Test func servedContextsExpireOnTheServersClock() throws {
        let time = ManualClock()
        let server = try makeServer(stubs: StateExtensionTests.example) { $0.clock = time.clock }
        let created = try server.answer("POST", "/todos", body: #"{"title": "milk"}"#)
        let id = try #require(StateExtensionTests.json(created)["id"]?.stringValue)
        time.advance(by: .seconds(3599))
        #expect(try server.answer("/todos/\(id)").status == 200)
        time.advance(by: .seconds(1))
        #expect(try server.answer("/todos/\(id)").status == 404)
        #expect(server.admin.stateContexts().isEmpty, "the todo and the list expired together")
    }

    @Test func theServersLifetimeIsItsConfigurations() throws {
        let time = ManualClock()
        let server = try makeServer(stubs: StateExtensionTests.example) {
            $0.clock = time.clock
            $0.stateLimits.contextLifetime = .seconds(60)
        }
        _ = try server.answer("POST", "/todos", body: #"{"title": "milk"}"#)
        time.advance(by: .seconds(59))
        #expect(server.admin.stateContexts().count == 2)
        time.advance(by: .seconds(1))
        #expect(server.admin.stateContexts().isEmpty)
    }
}
