import JSONKit
import Platform
import TestSupport
import Testing

@testable import MockEngine
@testable import StubServerKit

/// One clock for the whole engine: a `ManualClock` set to a fixed instant and given to
/// `StubServerConfiguration.clock` is what the journal stamps, what `{{now}}` renders, what a
/// date-time matcher's "now" is, and what the server's `Date` header says. The instant is far
/// from the real time, so a reader of any other clock fails these tests.
@Suite struct InjectedClockTests {
    /// 2024-05-15T10:30:00.250Z, a Wednesday.
    static let instant: Int64 = 1_715_769_000_250

    static func stubs() throws -> TemporaryStubs {
        let folder = try TemporaryStubs()
        folder.write(
            "mappings/now.json",
            #"{"request": {"url": "/now"}, "response": {"body": "{{now}} {{now format='epoch'}}", "transformers": ["response-template"]}}"#
        )
        folder.write(
            "mappings/before.json",
            #"{"request": {"url": "/before", "headers": {"X-When": {"before": "now"}}}, "response": {"body": "before"}}"#
        )
        folder.write(
            "mappings/after.json",
            #"{"request": {"url": "/after", "headers": {"X-When": {"after": "now"}}}, "response": {"body": "after"}}"#)
        return folder
    }

    static func server(_ time: ManualClock, _ folder: TemporaryStubs) throws -> StubServer {
        try makeServer(stubs: folder.root) { $0.clock = time.clock }
    }

    @Test func templatingReadsTheInjectedClock() throws {
        let time = ManualClock(wallNanoseconds: Self.instant * 1_000_000)
        let folder = try Self.stubs()
        let server = try Self.server(time, folder)
        #expect(try server.answer("/now").text == "2024-05-15T10:30:00Z 1715769000250")
        time.advance(by: .seconds(90))
        #expect(try server.answer("/now").text == "2024-05-15T10:31:30Z 1715769090250")
    }

    @Test func dateMatchingReadsTheInjectedClock() throws {
        let time = ManualClock(wallNanoseconds: Self.instant * 1_000_000)
        let folder = try Self.stubs()
        let server = try Self.server(time, folder)
        let earlier = [("X-When", "2024-05-15T10:29:59Z")]
        let later = [("X-When", "2024-05-15T10:30:01Z")]
        #expect(try server.answer("/before", headers: earlier).status == 200)
        #expect(try server.answer("/before", headers: later).status == 404)
        #expect(try server.answer("/after", headers: later).status == 200)
        #expect(try server.answer("/after", headers: earlier).status == 404)
        time.advance(by: .seconds(2))
        #expect(try server.answer("/before", headers: later).status == 200, "now is 10:30:02")
    }

    @Test func theJournalStampsByTheInjectedClock() throws {
        let time = ManualClock(wallNanoseconds: Self.instant * 1_000_000)
        let folder = try Self.stubs()
        let server = try Self.server(time, folder)
        _ = try server.answer("/now")
        time.advance(by: .milliseconds(1500))
        _ = try server.answer("/missing")
        #expect(server.admin.requests().map(\.loggedDate) == [Self.instant + 1500, Self.instant])
        let journal = try server.answer("/__admin/requests").json
        #expect(journal["requests"]?[0]?["request"]?["loggedDateString"] == "2024-05-15T10:30:01.750Z")
        #expect(journal["requests"]?[1]?["request"]?["loggedDateString"] == "2024-05-15T10:30:00.250Z")
    }

    @Test func theDateHeaderReadsTheInjectedClock() throws {
        let time = ManualClock(wallNanoseconds: Self.instant * 1_000_000)
        let folder = try Self.stubs()
        let server = try startServer(stubs: folder.root) { $0.clock = time.clock }
        defer {
            time.release()
            server.stop()
        }
        let response = try fetch(server.port, "/now")
        #expect(response.headers["Date"] == "Wed, 15 May 2024 10:30:00 GMT")
        #expect(response.text == "2024-05-15T10:30:00Z 1715769000250")
    }
}
