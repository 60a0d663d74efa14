import Dispatch
import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import Platform
import TestSupport
import Testing

/// A bad request sent on a real socket, and the status the client must read before EOF.
struct LiveRefusal: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: String
    var status: Int
    var testDescription: String { name }
}

let liveRefusals: [LiveRefusal] = [
    LiveRefusal(name: "malformed request line", bytes: "GARBAGE\r\n\r\n", status: 400),
    LiveRefusal(
        name: "request smuggling: Content-Length with Transfer-Encoding",
        bytes: "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        status: 400),
    LiveRefusal(
        name: "request smuggling: differing Content-Lengths",
        bytes: "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", status: 400),
    LiveRefusal(
        name: "invalid chunk size",
        bytes: "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nxyz\r\n", status: 400),
    LiveRefusal(name: "obs-fold", bytes: "GET / HTTP/1.1\r\nHost: h\r\nX: a\r\n b\r\n\r\n", status: 400),
    LiveRefusal(
        name: "request line over 8 KiB", bytes: "GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\n",
        status: 414),
    LiveRefusal(
        name: "headers over 64 KiB",
        bytes: "GET / HTTP/1.1\r\nHost: h\r\n"
            + String(repeating: "X-Pad: " + String(repeating: "p", count: 100) + "\r\n", count: 700),
        status: 431),
    LiveRefusal(
        name: "body over the limit",
        bytes: "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 2000\r\n\r\n" + String(repeating: "b", count: 2000),
        status: 413),
    LiveRefusal(
        name: "unsupported Transfer-Encoding",
        bytes: "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: br\r\n\r\n", status: 501),
    LiveRefusal(name: "HTTP/3", bytes: "GET / HTTP/3.0\r\nHost: h\r\n\r\n", status: 505),
    LiveRefusal(name: "Host with a space", bytes: "GET / HTTP/1.1\r\nHost: a b\r\n\r\n", status: 400),
    LiveRefusal(name: "Host with a slash", bytes: "GET / HTTP/1.1\r\nHost: a/b\r\n\r\n", status: 400),
]

@Suite struct HTTPServerRefusalLiveTests {
    static let configuration = HTTPServerConfiguration(eventLoopCount: 1, maxBodySize: 1000)

    @Test(arguments: liveRefusals)
    func refusesAndClosesWithoutHurtingOthers(_ refusal: LiveRefusal) throws {
        try withServer(Self.configuration, handler: echoPath) { server in
            let bystander = try RawClient(port: server.port)
            try bystander.send(get("/before"))
            #expect(try bystander.readResponse().text == "/before")

            let client = try RawClient(port: server.port)
            try client.send(refusal.bytes)
            let response = try client.readResponse()
            #expect(response.status == refusal.status)
            #expect(response.header("Connection") == "close")
            #expect(!response.text.isEmpty)
            #expect(try client.ending() == .closed([]))

            try bystander.send(get("/after"))
            #expect(try bystander.readResponse().text == "/after")
        }
    }

    @Test func bodyOverTheLimitWithExpectGets413InsteadOf100() throws {
        try withServer(Self.configuration, handler: echoPath) { server in
            let client = try RawClient(port: server.port)
            try client.send("PUT / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 5000\r\n\r\n")
            #expect(try client.readResponse().status == 413)
        }
    }

    @Test func aClientVanishingMidResponseHarmsNothing() throws {
        let big = PreparedResponse(body: [UInt8](repeating: 7, count: 16 << 20))
        try withServer(handler: { _ in .prepared(big) }) { server in
            for _ in 0..<3 {
                let leaving = try RawClient(port: server.port)
                try leaving.send(get("/big"))
                leaving.resetOnClose()
            }
            let client = try RawClient(port: server.port)
            try client.send(get("/big", headers: "Connection: close\r\n"))
            #expect(try client.readResponse().body.count == 16 << 20)
        }
    }

    @Test func atTheLimitTheLongestIdleConnectionMakesRoom() throws {
        let configuration = HTTPServerConfiguration(eventLoopCount: 1, maxConnections: 2)
        try withServer(configuration, handler: echoPath) { server in
            let older = try RawClient(port: server.port)
            try older.send(get("/older"))
            #expect(try older.readResponse().status == 200)
            let newer = try RawClient(port: server.port)
            try newer.send(get("/newer"))
            #expect(try newer.readResponse().status == 200)
            // Both idle between requests; a third client closes the one idle longest.
            let third = try RawClient(port: server.port)
            try third.send(get("/third"))
            #expect(try third.readResponse().text == "/third")
            let closed = try older.readToEnd()
            #expect(closed.ended && closed.bytes.isEmpty, "closed without a word, as an idle keep-alive is")
            try newer.send(get("/newer-again"))
            #expect(try newer.readResponse().text == "/newer-again")
        }
    }

    @Test func atTheLimitAStalledRequestMakesRoom() throws {
        let configuration = HTTPServerConfiguration(eventLoopCount: 1, maxConnections: 1, stalledRequestAge: .zero)
        try withServer(configuration, handler: echoPath) { server in
            let stalled = try RawClient(port: server.port)
            // The 100 Continue says the head was read: the connection is in the middle of a body.
            try stalled.send("POST /stalled HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 10\r\n\r\n")
            #expect(try stalled.readResponse().status == 100)
            try stalled.send("abc")
            let newcomer = try RawClient(port: server.port)
            try newcomer.send(get("/newcomer", headers: "Connection: close\r\n"))
            #expect(try newcomer.readResponse().text == "/newcomer")
            #expect(try stalled.readResponse().status == 408)
        }
    }

    @Test func atTheLimitAHeadThatMovedLatelyIsNotClosed() throws {
        let configuration = HTTPServerConfiguration(
            eventLoopCount: 1, maxConnections: 1, stalledRequestAge: .seconds(600))
        try withServer(configuration, handler: echoPath) { server in
            // Half a head: read or still unread in its socket, either way it is not closed.
            let moving = try RawClient(port: server.port)
            try moving.send("POST /moving HTTP/1.1\r\nHost: h\r\n")
            let newcomer = try RawClient(port: server.port)
            #expect(try newcomer.readResponse().status == 503)
            try moving.send("Content-Length: 3\r\n\r\nabc")
            #expect(try moving.readResponse().text == "/moving")
        }
    }

    @Test func atTheLimitWithEveryConnectionBusyANewOneGets503() throws {
        let configuration = HTTPServerConfiguration(eventLoopCount: 1, maxConnections: 1)
        let held = Locked<DeferredReply?>(nil)
        let arrived = DispatchSemaphore(value: 0)
        try withServer(
            configuration,
            handler: { _ in
                let reply = DeferredReply()
                held.withLock { $0 = reply }
                arrived.signal()
                return .deferred(reply)
            }
        ) { server in
            let busy = try RawClient(port: server.port)
            try busy.send(get("/held"))
            #expect(arrived.wait(timeout: .now() + 10) == .success)
            // The only slot is awaiting its answer: nothing idle to close, so a 503.
            let second = try RawClient(port: server.port)
            #expect(try second.readResponse().status == 503)
            held.withLock { $0 }?.complete(.response(HTTPResponse(text: "answered")))
            // The reply holds the connection's loop, which holds this handler: break the cycle.
            held.withLock { $0 = nil }
            #expect(try busy.readResponse().text == "answered", "the busy one was not closed to make room")
        }
    }
}
