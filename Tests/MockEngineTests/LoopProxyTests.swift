import Dispatch
import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import Platform
import TestSupport
import Testing

@testable import MockEngine
@testable import StubServerKit

/// Proxy stubs whose upstream transfers run on the event loop itself, against a real local
/// upstream, over both poller back ends and both clients: petmock's own HTTP/1.1 client (a
/// plain-http upstream at a numeric address, the default) and libcurl's multi-socket API.
@Suite struct LoopProxyTests {
    static let kinds = HTTPPollerKind.backEnds

    /// Petmock's own client (true) or libcurl (false) for a `http://127.0.0.1` upstream.
    static let clients = [true, false]

    /// An upstream that answers `/big` with `size` bytes, `/hold` when `gate` opens, and
    /// anything else with its target.
    static func upstream(size: Int = 0, gate: Gate? = nil) throws -> LiveHTTPServer {
        let big = PreparedResponse(body: [UInt8](repeating: UInt8(ascii: "x"), count: size))
        return try LiveHTTPServer { request in
            switch request.path {
            case "/big": return .prepared(big)
            case "/hold":
                let later = DeferredReply()
                gate?.arrived(later)
                return .deferred(later)
            default: return .response(HTTPResponse(text: "upstream " + request.head.target))
            }
        }
    }

    /// Where the upstream parks held requests, and tells the test one arrived.
    final class Gate: Sendable {
        let held = Locked<[DeferredReply]>([])
        let arrival = DispatchSemaphore(value: 0)

        func arrived(_ reply: DeferredReply) {
            held.withLock { $0.append(reply) }
            arrival.signal()
        }

        func release() {
            for reply in held.withLock({ $0 }) { reply.complete(.response(HTTPResponse(text: "released"))) }
        }
    }

    /// A petmock whose one stub proxies everything to `base`, on the poller `kind`.
    static func proxy(
        to base: String, kind: HTTPPollerKind, native: Bool = true,
        configure: (inout StubServerConfiguration) -> Void = { _ in }
    ) throws -> StubServer {
        let folder = try TemporaryStubs()
        folder.write(
            "mappings/proxy.json", #"{"request": {"urlPattern": "/.*"}, "response": {"proxyBaseUrl": "\#(base)"}}"#)
        return try startServer(stubs: folder.root) { configuration in
            configuration.http.poller = kind
            configuration.upstream.nativeClient = native
            configure(&configuration)
        }
    }

    @Test(arguments: kinds, clients) func keepAliveConnectionsToTheUpstreamAreReused(
        kind: HTTPPollerKind, native: Bool
    ) throws {
        let upstream = try Self.upstream()
        defer { upstream.stop() }
        let server = try Self.proxy(to: upstream.baseURL, kind: kind, native: native)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        for index in 0..<20 {
            try client.send(get("/pets/\(index)"))
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.text == "upstream /pets/\(index)")
        }
        #expect(server.engine.proxy.loopDrivenCount == 20, "every transfer ran on the event loop")
        #expect(server.engine.proxy.nativeCount == (native ? 20 : 0), "and through the client chosen")
        #expect(upstream.connectionCount == 1, "one upstream connection, kept alive")
    }

    @Test(arguments: kinds, clients) func anIdleUpstreamConnectionClosedByTheUpstreamIsLetGo(
        kind: HTTPPollerKind, native: Bool
    ) throws {
        // Between transfers the kept-alive upstream socket stays registered (parked); the
        // upstream closing it must neither reach libcurl as an event nor spin the loop.
        let upstream = try Self.upstream()
        let server = try Self.proxy(to: upstream.baseURL, kind: kind, native: native)
        defer { server.stop() }
        #expect(try fetch(server.port, "/first").text == "upstream /first")
        upstream.stop()
        var client = try RawClient(port: server.port)
        try client.send(get("/second"))
        do {
            // The close seen before the next transfer: a new connection, refused (a 502).
            let second = try client.readResponse()
            #expect(second.text != "upstream /second", "that upstream is gone")
        } catch .reset, .closed {
            // Sent on the parked connection before its close arrived, the request met the
            // upstream's reset, which petmock passes on to its client as a reset.
            client = try RawClient(port: server.port)
        }
        // The loop goes on answering (each request a complete response).
        for index in 0..<3 {
            try client.send(get("/again/\(index)"))
            #expect(try client.readResponse().status > 0)
        }
    }

    @Test(arguments: kinds) func anUpstreamNamedByHostNameIsReached(kind: HTTPPollerKind) throws {
        // libcurl resolves `localhost` on a resolver thread and hands the loop the descriptor
        // it signals on, like any other.
        let upstream = try Self.upstream()
        defer { upstream.stop() }
        let server = try Self.proxy(to: "http://localhost:\(upstream.port)", kind: kind)
        defer { server.stop() }
        #expect(try fetch(server.port, "/named").text == "upstream /named")
        #expect(server.engine.proxy.loopDrivenCount == 1)
        #expect(server.engine.proxy.nativeCount == 0, "a host name is libcurl's to resolve")
    }

    @Test(arguments: kinds, clients) func aRefusedConnectionIsA502(kind: HTTPPollerKind, native: Bool) throws {
        let down = try ClosedPort()
        let server = try Self.proxy(to: "http://127.0.0.1:\(down.port)", kind: kind, native: native)
        defer { server.stop() }
        let response = try fetch(server.port, "/pets", headers: [("Accept", "application/json")])
        #expect(response.status == 502)
        #expect(response.header(ProxyReply.errorHeader) == "couldNotConnect")
        #expect(response.text.contains("could not connect to the live API"))
        #expect(server.engine.proxy.loopDrivenCount == 1)
        #expect(server.engine.proxy.nativeCount == (native ? 1 : 0))
        _ = down
    }

    @Test(arguments: kinds, clients) func anUpstreamSlowerThanTheTimeoutIsA504(
        kind: HTTPPollerKind, native: Bool
    ) throws {
        let gate = Gate()
        let upstream = try Self.upstream(gate: gate)
        defer {
            gate.release()
            upstream.stop()
        }
        let server = try Self.proxy(to: upstream.baseURL, kind: kind, native: native) {
            $0.upstreamTimeout = .milliseconds(200)
        }
        defer { server.stop() }
        let response = try fetch(server.port, "/hold")
        #expect(response.status == 504)
        #expect(response.header(ProxyReply.errorHeader) == "timedOut")
        // The loop stays free for other clients meanwhile and after.
        #expect(try fetch(server.port, "/after").text == "upstream /after")
    }

    @Test(arguments: kinds, clients) func aResponseOverTheSizeLimitIsA502(kind: HTTPPollerKind, native: Bool) throws {
        let upstream = try Self.upstream(size: 256 << 10)
        defer { upstream.stop() }
        let server = try Self.proxy(to: upstream.baseURL, kind: kind, native: native) {
            $0.upstream.maxResponseSize = 64 << 10
        }
        defer { server.stop() }
        let response = try fetch(server.port, "/big")
        #expect(response.status == 502)
        #expect(response.header(ProxyReply.errorHeader) == "tooLarge")
        #expect(try fetch(server.port, "/small").text == "upstream /small", "under the limit passes")
    }

    @Test(arguments: kinds, clients) func aLargeResponseUnderTheLimitArrivesWhole(
        kind: HTTPPollerKind, native: Bool
    ) throws {
        let upstream = try Self.upstream(size: 3 << 20)
        defer { upstream.stop() }
        let server = try Self.proxy(to: upstream.baseURL, kind: kind, native: native)
        defer { server.stop() }
        let response = try fetch(server.port, "/big")
        #expect(response.status == 200)
        #expect(response.body.count == 3 << 20)
    }

    @Test(arguments: kinds, clients) func manyConcurrentRequestsAllComplete(kind: HTTPPollerKind, native: Bool) throws {
        let upstream = try LiveHTTPServer(eventLoopCount: 2) { request in
            .response(HTTPResponse(text: "upstream " + request.head.target))
        }
        defer { upstream.stop() }
        let server = try Self.proxy(to: upstream.baseURL, kind: kind, native: native) { $0.eventLoopCount = 2 }
        defer { server.stop() }
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 32) { client in
            do {
                let connection = try RawClient(port: server.port)
                // Pipelined: each client's requests are under way together.
                try connection.send((0..<8).map { get("/c\(client)/r\($0)") }.joined())
                for request in 0..<8 {
                    let text = try connection.readResponse().text
                    if text != "upstream /c\(client)/r\(request)" { failures.withLock { $0.append(text) } }
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(server.engine.proxy.loopDrivenCount == 256)
        #expect(server.engine.proxy.nativeCount == (native ? 256 : 0))
        server.stop()
        #expect(server.engine.proxy.pendingCount == 0, "each counted transfer was counted out")
    }

    @Test(arguments: kinds, clients) func beyondTheLoopsTransferLimitA503(kind: HTTPPollerKind, native: Bool) throws {
        let gate = Gate()
        let upstream = try Self.upstream(gate: gate)
        defer { upstream.stop() }
        let server = try Self.proxy(to: upstream.baseURL, kind: kind, native: native) {
            $0.upstream.maxTransfersPerLoop = 1
        }
        defer { server.stop() }
        let first = try RawClient(port: server.port)
        try first.send(get("/hold"))
        #expect(gate.arrival.wait(timeout: .now() + 10) == .success)
        let refused = try fetch(server.port, "/pets")
        #expect(refused.status == 503)
        #expect(refused.header(ProxyReply.errorHeader) == "overloaded")
        gate.release()
        #expect(try first.readResponse().text == "released")
        #expect(try fetch(server.port, "/pets").text == "upstream /pets", "room again once it finished")
    }

    @Test(arguments: kinds, clients) func stoppingWithATransferUnderWayEndsIt(kind: HTTPPollerKind, native: Bool) throws
    {
        let gate = Gate()
        let upstream = try Self.upstream(gate: gate)
        defer {
            gate.release()
            upstream.stop()
        }
        let server = try Self.proxy(to: upstream.baseURL, kind: kind, native: native) {
            $0.http.shutdownGracePeriod = .milliseconds(100)
        }
        let client = try RawClient(port: server.port)
        try client.send(get("/hold"))
        #expect(gate.arrival.wait(timeout: .now() + 10) == .success)
        server.stop()
        #expect(server.engine.proxy.pendingCount == 0, "the loop's transfers end with it")
    }

    @Test func theThreadedPathStaysBehindTheSwitch() throws {
        let upstream = try Self.upstream()
        defer { upstream.stop() }
        let server = try Self.proxy(to: upstream.baseURL, kind: .automatic) { $0.upstream.onEventLoop = false }
        defer { server.stop() }
        #expect(try fetch(server.port, "/pets").text == "upstream /pets")
        #expect(server.engine.proxy.loopDrivenCount == 0)
    }

    private func get(_ target: String) -> String {
        "GET \(target) HTTP/1.1\r\nHost: petmock\r\n\r\n"
    }
}
