import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import TestSupport
import Testing

/// A stopped server lets go of its handler, and what the handler holds, once it is released,
/// even when the handler keeps the requests it was given (each request refers to its event
/// loop, and the loop to the handler): the test servers keep every request, and so may a
/// user's handler.
@Suite struct HTTPServerReleaseTests {
    @Test func aStoppedLiveServerThatKeptItsRequestsReleasesItsHandler() throws {
        weak var released: Witness?
        do {
            let witness = Witness()
            released = witness
            let server = try LiveHTTPServer { _ in
                witness.touch()
                return .response(HTTPResponse(text: "ok"))
            }
            let client = try RawClient(port: server.port)
            try client.send(get("/kept"))
            #expect(try client.readResponse().status == 200)
            #expect(server.requests.count == 1)
            server.stop()
        }
        #expect(released == nil, "the stopped server's loop still holds its handler")
    }

    @Test func aStoppedClockedServerReleasesItsHandler() throws {
        weak var released: Witness?
        do {
            let witness = Witness()
            released = witness
            let server = try ClockedHTTPServer { _ in
                witness.touch()
                return .response(HTTPResponse(text: "ok"))
            }
            let client = try RawClient(port: server.port)
            try client.send(get("/kept"))
            #expect(try client.readResponse().status == 200)
            server.stop()
        }
        #expect(released == nil, "the stopped server's loop still holds its handler")
    }
}

/// An object the handler captures, whose release the tests watch.
private final class Witness: Sendable {
    func touch() {}
}
