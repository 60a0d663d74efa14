import MockEngine
import StubFormat
import StubServerKit
import TestSupport
import Testing

/// The global `fixedDelay` on a live loop with a hand-moved clock: the stub's answer waits on
/// the loop's timers, and only moving the clock past the delay brings it (no real wait).
@Suite struct GlobalDelayClockTests {
    @Test func theGlobalFixedDelayHoldsTheAnswerUntilTheClockPassesIt() throws {
        let stubs = try makeServer(mappings: AdminSettingsTests.mappings)
        let put = try stubs.answer("PUT", "/__admin/settings", body: #"{"fixedDelay": 600000}"#)
        #expect(put.status == 200)
        let server = try ClockedHTTPServer(handler: stubs)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send(get("/plain"))
        try server.requestArrived()
        server.advance(by: .seconds(599))
        #expect(!client.hasPendingInput, "the answer went before the global delay")
        server.advance(by: .seconds(1))
        #expect(try client.readResponse().text == "ok")
    }
}
