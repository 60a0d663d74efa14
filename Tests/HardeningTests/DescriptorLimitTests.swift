import Foundation
import TestSupport
import Testing

/// A server that runs out of file descriptors must keep answering: an idle connection, else
/// the request body that has made the least recent progress, makes room for a new client, as
/// at the connection limit; with none that may go, the client gets a 503 instead of waiting
/// in the backlog, and the event loop does not spin on a listener it cannot accept from.
@Suite struct DescriptorLimitTests {
    static func limitedPetAPI(_ folder: TemporaryDirectory) async throws -> ServerProcess {
        try await ServerProcess(
            "petapi", ["serve", "--db", folder.file("api.sqlite"), "--port", "0", "--event-loops", "1"],
            openFileLimit: 48)
    }

    static let getPets = "GET /api/pets HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"

    @Test func idleConnectionsMakeRoomForNewClientsAtTheDescriptorLimit() async throws {
        let folder = try TemporaryDirectory(prefix: "petkit-fdlimit")
        defer { folder.remove() }
        let server = try await Self.limitedPetAPI(folder)
        defer { server.terminate() }
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

    @Test func theStalestBodyMakesRoomAtTheDescriptorLimit() async throws {
        let folder = try TemporaryDirectory(prefix: "petkit-fdlimit")
        defer { folder.remove() }
        let server = try await Self.limitedPetAPI(folder)
        defer { server.terminate() }
        // Each client is in the middle of a request body (the server answered its `Expect:
        // 100-continue`, so it has read the head), and there are more than the server has
        // descriptors: each one past the limit is taken in (`accept` fails with EMFILE, the
        // spare descriptor takes it) in the place of the body that has made the least recent
        // progress, which is told 503 and closed.
        var held: [RawClient] = []
        for index in 0..<60 {
            let client = try RawClient(port: server.port)
            try client.send(
                "POST /api/pets HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 2\r\nExpect: 100-continue\r\n\r\n")
            let continued = try client.readResponse()
            #expect(continued.status == 100, "client \(index) was not taken in")
            held.append(client)
        }
        var evicted = 0
        while evicted < held.count, held[evicted].hasPendingInput {
            let refusal = try held[evicted].readResponse()
            #expect(refusal.status == 503 && refusal.header("Connection") == "close")
            #expect(try held[evicted].ending() == .closed([]))
            evicted += 1
        }
        #expect(evicted > 10, "the oldest bodies made room, in order")
        for client in held[evicted...] { #expect(!client.hasPendingInput, "a newer body was closed first") }
        let newest = try #require(held.last)
        try newest.send("{}")
        #expect(try newest.readResponse().status != 503, "the newest body was taken in and is answered")
    }

    @Test func clientsPastTheDescriptorLimitGet503WhenNoneCanGoAndServiceResumes() async throws {
        let folder = try TemporaryDirectory(prefix: "petkit-fdlimit")
        defer { folder.remove() }
        let server = try await Self.limitedPetAPI(folder)
        defer { server.terminate() }
        // Each held connection is in the middle of its request head (read or still unread in
        // its socket), for less than the stalled-request age (2 s): none may be closed to make
        // room, so a client past the descriptor limit gets 503 rather than wait in the backlog.
        var held: [RawClient] = []
        for _ in 0..<60 {
            let client = try RawClient(port: server.port)
            try client.send("GET /api/pets HTTP/1.1\r\nHost: h\r\n")
            held.append(client)
        }
        let late = try RawClient(port: server.port)
        let refusal = try late.readResponse()
        #expect(refusal.status == 503)
        // Give the descriptors back in a way the test can see finish: each held head ends
        // with the client's end of file, which the server's close shows.
        for connection in held {
            connection.shutdownWrite()
            _ = try? connection.readToEnd()
        }
        held.removeAll()
        let client = try RawClient(port: server.port)
        try client.send(Self.getPets)
        #expect(try client.readToEnd().text.hasPrefix("HTTP/1.1 200 OK\r\n"))
    }
}
