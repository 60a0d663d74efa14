import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import Platform
import TestSupport
import Testing

/// At the connection limit, with every place held by a body trickling in, a new client's first
/// request is answered: the body that has made the least recent progress makes room (503 if it
/// moved within the stalled-request age, else 408), never a connection idle in order, nor one
/// being answered. A live server on a hand-moved clock: no sleep, no timer.
@Suite struct SlowBodyEvictionLiveTests {
    static let limit = 8

    /// A body declared 20 bytes long, of which the first has come.
    static func bodyStart(_ index: Int) -> String {
        "POST /body-\(index) HTTP/1.1\r\nHost: h\r\nContent-Length: 20\r\n\r\nx"
    }

    @Test(arguments: [(Duration.zero, 503), (Duration.seconds(3), 408)])
    func aGoodClientsFirstRequestIsAnsweredAndTheStalestBodyMakesRoom(pause: Duration, status: Int) throws {
        let configuration = HTTPServerConfiguration(eventLoopCount: 1, maxConnections: Self.limit)
        try withClockedServer(configuration, handler: echoPath) { server in
            var bodies: [RawClient] = []
            for index in 0..<Self.limit {
                let client = try RawClient(port: server.port)
                try client.send(Self.bodyStart(index))
                bodies.append(client)
                server.advance(by: .milliseconds(100))
            }
            // A byte more from every body but the fourth, 100 ms apart: the fourth began
            // neither first nor last, and its body has made the least recent progress.
            let stalest = 3
            let others = (0..<Self.limit).filter { $0 != stalest }
            for index in others {
                try bodies[index].send("x")
                server.advance(by: .milliseconds(100))
            }
            server.advance(by: pause)

            let good = try RawClient(port: server.port)
            try good.send(get("/good", headers: "Connection: close\r\n"))
            let first = try good.readResponse()
            #expect(first.status == 200 && first.text == "/good", "the good client's first request")

            let evicted = try bodies[stalest].readResponse()
            #expect(evicted.status == status)
            #expect(evicted.header("Connection") == "close")
            #expect(try bodies[stalest].ending() == .closed([]))
            for index in others {
                #expect(!bodies[index].hasPendingInput, "body \(index) was closed, not the stalest")
            }
            // The others are still held: one finishes its body and is answered.
            try bodies[0].send(String(repeating: "x", count: 18))
            #expect(try bodies[0].readResponse().text == "/body-0")
        }
    }

    @Test func anIdleConnectionMakesRoomBeforeAnyBody() throws {
        let configuration = HTTPServerConfiguration(eventLoopCount: 1, maxConnections: 2)
        try withClockedServer(configuration, handler: echoPath) { server in
            let body = try RawClient(port: server.port)
            try body.send(Self.bodyStart(0))
            server.advance(by: .seconds(5))
            let idle = try RawClient(port: server.port)
            try idle.send(get("/idle"))
            #expect(try idle.readResponse().text == "/idle")
            server.advance(by: .seconds(1))

            let good = try RawClient(port: server.port)
            try good.send(get("/good", headers: "Connection: close\r\n"))
            #expect(try good.readResponse().text == "/good")
            #expect(try idle.ending() == .closed([]), "the idle keep-alive goes first, without a word")
            #expect(!body.hasPendingInput, "the stalled body stays while an idle connection can go")
        }
    }

    @Test func aRequestBeingAnsweredIsNeverClosedToMakeRoom() throws {
        let configuration = HTTPServerConfiguration(eventLoopCount: 1, maxConnections: 2)
        let held = Locked<DeferredReply?>(nil)
        try withClockedServer(
            configuration,
            handler: { request in
                guard request.path == "/held" else { return echoPath(request) }
                let reply = DeferredReply()
                held.withLock { $0 = reply }
                return .deferred(reply)
            }
        ) { server in
            let busy = try RawClient(port: server.port)
            try busy.send(get("/held"))
            try server.requestArrived()
            server.advance(by: .seconds(10))
            let body = try RawClient(port: server.port)
            try body.send(Self.bodyStart(0))
            server.advance(by: .milliseconds(100))

            // The older connection waits for its answer; the body moved lately, and goes.
            let good = try RawClient(port: server.port)
            try good.send(get("/good", headers: "Connection: close\r\n"))
            #expect(try good.readResponse().text == "/good")
            #expect(try body.readResponse().status == 503)

            // With only the busy one and the good one's place back, a body fills it; then
            // a newcomer takes that body's place, never the busy one's.
            let another = try RawClient(port: server.port)
            try another.send(Self.bodyStart(1))
            server.advance(by: .milliseconds(100))
            let newcomer = try RawClient(port: server.port)
            try newcomer.send(get("/newcomer", headers: "Connection: close\r\n"))
            #expect(try newcomer.readResponse().text == "/newcomer")
            #expect(try another.readResponse().status == 503)

            held.withLock { $0 }?.complete(.response(HTTPResponse(text: "answered")))
            // The reply holds the connection's loop, which holds this handler: break the cycle.
            held.withLock { $0 = nil }
            #expect(try busy.readResponse().text == "answered", "the busy one was not closed to make room")
        }
    }
}
