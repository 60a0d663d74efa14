import Dispatch
import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import JSONKit
import Platform
import StubFormat
import TestSupport
import Testing

@testable import MockEngine
@testable import StubServerKit

/// The webhooks' bounds past sending: a listener that does not fire once the answer is
/// complete, a delayed call whose loop stops first (its slot given back), and the one line a
/// second about failures (a value told the time, then the dispatcher on a hand-moved clock).
@Suite struct WebhookBoundsTests {
    @Test func aWebhookWhoseListenerDoesNotFireAfterCompleteIsNotCompiled() throws {
        let mapping = #"""
            {"request": {"url": "/phases"}, "response": {"status": 200},
             "serveEventListeners": [
               {"name": "webhook", "requestPhases": ["BEFORE_MATCH"], "parameters": {"url": "http://127.0.0.1:9/never"}},
               {"name": "webhook", "requestPhases": ["AFTER_COMPLETE"], "parameters": {"url": "http://127.0.0.1:9/sent"}}]}
            """#
        let (server, folder) = try WebhookTests.server(mapping)
        defer { server.stop() }
        _ = folder
        let stub = try #require(server.engine.store.snapshot().index.all.first)
        #expect(stub.webhooks.map(\.definition.url) == ["http://127.0.0.1:9/sent"])
        #expect(server.admin.loadProblems().contains { !$0.isError && $0.path.hasSuffix("requestPhases") })
    }

    @Test func aDelayedCallPendingWhenTheServerStopsGivesItsSlotBack() throws {
        let mapping = #"""
            {"request": {"url": "/later"}, "response": {"status": 200, "body": "now"},
             "serveEventListeners": [{"name": "webhook", "parameters": {"url": "http://127.0.0.1:9/later",
               "delay": {"type": "fixed", "milliseconds": 600000}}}]}
            """#
        let (server, folder) = try WebhookTests.server(mapping)
        _ = folder
        let client = try RawClient(port: server.port)
        try client.send(get("/later"))
        #expect(try client.readResponse().text == "now")
        #expect(server.engine.webhooks.pendingCount == 1)
        server.stop()
        #expect(server.engine.webhooks.pendingCount == 0)
        let calls = server.admin.webhookCalls().calls
        #expect(calls.map(\.outcome) == ["refused"])
        #expect(calls.first?.error == "the server stopped before the call was sent")
    }

    @Test func failureLinesAreOneASecondCountingTheOthers() {
        var limit = FailureLineLimit()
        let second: UInt64 = 1_000_000_000
        #expect(limit.tell(at: 5 * second) == 0)
        #expect(limit.tell(at: 5 * second + 1) == nil)
        #expect(limit.tell(at: 5 * second + second - 1) == nil)
        #expect(limit.tell(at: 6 * second) == 2)
        #expect(limit.tell(at: 6 * second + 10) == nil)
        #expect(limit.tell(at: 9 * second) == 1)
        // A reading of 0 still counts as a line told.
        var fromZero = FailureLineLimit()
        #expect(fromZero.tell(at: 0) == 0)
        #expect(fromZero.tell(at: 1) == nil)
    }

    /// Through the dispatcher: a receiver holds the one slot, so each further call is refused
    /// when its answer is committed; the first refusal is told, the next two only counted, and
    /// a second later the next line says 2 were not.
    @Test func theDispatcherTellsOneFailureASecond() async throws {
        let receiver = try WebhookTests.Receiver(answering: false)
        let time = ManualClock()
        let mapping = #"""
            {"request": {"url": "/busy"}, "response": {"status": 200},
             "serveEventListeners": [{"name": "webhook", "parameters": {"url": "\#(receiver.server.url("/hold"))"}}]}
            """#
        let (server, folder) = try WebhookTests.server(mapping) {
            $0.upstream.maxWebhooksInFlight = 1
            $0.clock = time.clock
        }
        defer { server.stop() }
        _ = folder
        let events = server.events()
        let client = try RawClient(port: server.port)
        try client.send(get("/busy"))
        #expect(try client.readResponse().status == 200)
        #expect(await receiver.awaitCall())
        for _ in 0..<3 {
            try client.send(get("/busy"))
            #expect(try client.readResponse().status == 200)
        }
        time.advance(by: .seconds(1))
        try client.send(get("/busy"))
        #expect(try client.readResponse().status == 200)
        let told = try await firstEvents(events, count: 2)
        #expect(told.map(\.untold) == [0, 2])
        #expect(told.allSatisfy { $0.call.outcome == "refused" })
        #expect(server.admin.webhookCalls().calls.filter { $0.outcome == "refused" }.count == 4)
    }

    /// The first `count` webhook events, bounded in time.
    private func firstEvents(
        _ events: AsyncStream<StubServerEvent>, count: Int
    ) async throws -> [(call: WebhookCall, untold: Int)] {
        try await withThrowingTaskGroup(of: [(call: WebhookCall, untold: Int)]?.self) { group in
            group.addTask {
                var found: [(call: WebhookCall, untold: Int)] = []
                for await event in events {
                    guard case .webhook(let call, let untold) = event else { continue }
                    found.append((call, untold))
                    if found.count == count { return found }
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: .seconds(20))
                return nil
            }
            defer { group.cancelAll() }
            return try #require(try await group.next() ?? nil)
        }
    }
}
