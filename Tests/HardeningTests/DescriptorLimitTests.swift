import Foundation
import TestSupport
import Testing

/// A server that runs out of file descriptors must keep answering: clients it cannot take
/// get a 503 instead of waiting in the backlog, and the event loop does not spin on a
/// listener it cannot accept from.
@Suite struct DescriptorLimitTests {
    @Test func clientsPastTheDescriptorLimitGet503AndServiceResumes() throws {
        let folder = try TemporaryDirectory(prefix: "petkit-fdlimit")
        defer { folder.remove() }
        let server = try LimitedServer(
            "petapi", ["serve", "--db", folder.file("api.sqlite"), "--port", "0", "--event-loops", "1"],
            openFileLimit: 48)
        defer { server.stop() }
        // More connections than the server has descriptors left: the first ones are held, the
        // last one can only be refused. Before the fix it waited in the backlog unanswered
        // (and the loop spun at 100% CPU); now it gets 503 and a close.
        var held: [RawClient] = []
        for _ in 0..<60 { held.append(try RawClient(port: server.port)) }
        let last = try #require(held.last)
        let ending = try last.readToEnd()
        #expect(String(decoding: ending.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
        #expect(ending.ended)
        // Give the descriptors back in a way the test can see finish: each held connection
        // asks to close and is read to its end, which the server's close() causes.
        for connection in held.dropLast() {
            try? connection.send("GET /api/pets HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
            #expect(try connection.readToEnd().ended)
        }
        held.removeAll()
        let client = try RawClient(port: server.port)
        try client.send("GET /api/pets HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        #expect(try client.readToEnd().text.hasPrefix("HTTP/1.1 200 OK\r\n"))
    }
}
