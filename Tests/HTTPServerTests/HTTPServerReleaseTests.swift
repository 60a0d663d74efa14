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
    /// The two test servers a suite makes: a live one (which keeps every request) and a clocked one.
    enum Kind: CaseIterable, Sendable { case live, clocked }

    @Test(arguments: Kind.allCases) func aStoppedServerThatKeptItsRequestsReleasesItsHandler(kind: Kind) throws {
        weak var released: Witness?
        do {
            let witness = Witness()
            released = witness
            let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { _ in
                witness.touch()
                return .response(HTTPResponse(text: "ok"))
            }
            let live = kind == .live ? try LiveHTTPServer(handler) : nil
            let clocked =
                kind == .clocked ? try ClockedHTTPServer(HTTPServerConfiguration(eventLoopCount: 1), handler) : nil
            let client = try RawClient(port: live?.port ?? clocked?.port ?? 0)
            try client.send(get("/kept"))
            #expect(try client.readResponse().status == 200)
            if let live { #expect(live.requests.count == 1) }
            live?.stop()
            clocked?.stop()
        }
        #expect(released == nil, "the stopped \(kind) server's loop still holds its handler")
    }
}

/// An object the handler captures, whose release the tests watch.
private final class Witness: Sendable {
    func touch() {}
}
