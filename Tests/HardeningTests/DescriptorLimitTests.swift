import Foundation
import TestSupport
import Testing

/// A server that runs out of file descriptors must keep answering: an idle connection makes
/// room for a new client; with none idle, the client gets a 503 instead of waiting in the
/// backlog, and the event loop does not spin on a listener it cannot accept from.
@Suite struct DescriptorLimitTests {
    static func limitedPetAPI(_ folder: TemporaryDirectory) throws -> ServerProcess {
        try ServerProcess(
            "petapi", ["serve", "--db", folder.file("api.sqlite"), "--port", "0", "--event-loops", "1"],
            openFileLimit: 48)
    }

    static let getPets = "GET /api/pets HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"

    @Test func idleConnectionsMakeRoomForNewClientsAtTheDescriptorLimit() throws {
        let folder = try TemporaryDirectory(prefix: "petkit-fdlimit")
        defer { folder.remove() }
        let server = try Self.limitedPetAPI(folder)
        defer { server.stop() }
        // More idle connections than the server has descriptors: the newest is taken in and
        // served, the longest idle are closed to make room (before, the newest waited in the
        // backlog unanswered while the loop spun at 100% CPU; then it got a 503).
        var held: [RawClient] = []
        for _ in 0..<60 { held.append(try RawClient(port: server.port)) }
        let newest = try #require(held.last)
        try newest.send(Self.getPets)
        #expect(try newest.readToEnd().text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        let oldest = try held[0].readToEnd()
        #expect(oldest.ended && oldest.bytes.isEmpty, "the longest-idle connection was closed, without a word")
    }

    @Test func clientsPastTheDescriptorLimitGet503WhenNoneIsIdleAndServiceResumes() throws {
        let folder = try TemporaryDirectory(prefix: "petkit-fdlimit")
        defer { folder.remove() }
        let server = try Self.limitedPetAPI(folder)
        defer { server.stop() }
        // Each held connection is in the middle of a request (the server answered its
        // `Expect: 100-continue`, so it has read the head): none may be closed to make room.
        var held: [RawClient] = []
        var refusal: RawOutcome?
        for _ in 0..<60 {
            let client = try RawClient(port: server.port)
            try client.send(
                "POST /api/pets HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 2\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n")
            let outcome = try client.readOutcome()
            if case .response(let response) = outcome, response.status == 100 {
                held.append(client)
                continue
            }
            refusal = outcome
            break
        }
        guard case .response(let response)? = refusal else {
            Issue.record("expected a 503 once the descriptors ran out, got \(String(describing: refusal))")
            return
        }
        #expect(response.status == 503 && held.count > 20)
        // Give the descriptors back in a way the test can see finish: each held request ends
        // with a close, which the server's close() shows.
        for connection in held {
            try? connection.send("{}")
            _ = try? connection.readToEnd()
        }
        held.removeAll()
        let client = try RawClient(port: server.port)
        try client.send(Self.getPets)
        #expect(try client.readToEnd().text.hasPrefix("HTTP/1.1 200 OK\r\n"))
    }
}
