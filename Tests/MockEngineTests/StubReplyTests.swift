import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import MockEngine
import StubFormat
import StubServerKit
import TestSupport
import Testing

/// What the stub server replies, as values and without a socket: which stub fields become a
/// fault, a delay or a dribble around the prepared response (the bytes are `FaultTests`').
@Suite struct StubReplyTests {
    /// A reply in words, for tables: `after 200 ms: prepared 200`.
    static func describe(_ reply: HTTPReply) -> String {
        switch reply {
        case .response(let response): "response \(response.status.code)"
        case .prepared(let prepared): "prepared \(prepared.response.status.code)"
        case .fault(let fault): "fault \(describe(fault))"
        case .delayed(let later, .fixed(let duration)): "after \(milliseconds(duration)) ms: \(describe(later))"
        case .delayed(let later, let delay): "after \(delay): \(describe(later))"
        case .dribbled(let response, let dribble):
            "dribbled \(response.status.code) in \(dribble.chunkCount) chunks over \(milliseconds(dribble.duration)) ms"
        case .deferred: "deferred"
        }
    }

    static func describe(_ fault: HTTPFault) -> String {
        switch fault {
        case .emptyResponse: "empty"
        case .connectionReset: "reset"
        case .randomDataThenClose(let count): "random \(count)"
        case .malformedResponseChunk(let status, _): "malformed chunk \(status.code)"
        case .truncatedBody(_, let kept): "truncated at \(kept)"
        }
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }

    static func reply(_ server: StubServer, _ target: String) -> HTTPReply {
        server.reply(to: HTTPServerRequest(method: .get, target: target, headers: ["Host": "127.0.0.1"]))
    }

    @Test(arguments: [
        ("/empty", "fault empty"), ("/reset", "fault reset"), ("/random", "fault random 64"),
        ("/malformed", "fault malformed chunk 200"), ("/fixed", "after 200 ms: prepared 200"),
        ("/dribble", "dribbled 200 in 5 chunks over 200 ms"), ("/status", "prepared 299"),
        ("/large", "prepared 200"), ("/nothing", "response 404"),
    ])
    func stubFieldsBecomeReplies(_ target: String, _ expected: String) throws {
        let server = try makeServer(mappings: FaultTests.mappings)
        #expect(Self.describe(Self.reply(server, target)) == expected)
    }

    @Test func aDistributedDelayIsDrawnPerRequestWithinItsBounds() throws {
        let server = try makeServer(mappings: FaultTests.mappings)
        for _ in 0..<20 {
            guard case .delayed(.prepared, .fixed(let duration)) = Self.reply(server, "/uniform") else {
                Issue.record("expected a fixed delay around a prepared response")
                return
            }
            #expect((100...150).contains(Self.milliseconds(duration)), "\(duration)")
        }
    }

    @Test func theStatusLineReasonAndBodyAreThePreparedOnes() throws {
        let server = try makeServer(mappings: FaultTests.mappings)
        guard case .prepared(let prepared) = Self.reply(server, "/status") else {
            Issue.record("expected a prepared response")
            return
        }
        #expect(prepared.response.status == HTTPStatus(code: 299, reasonPhrase: "Custom Reason"))
        #expect(prepared.response.body == Array("odd".utf8))
    }

    @Test func anUnreachableUpstreamIsADeferred502() throws {
        let down = try ClosedPort()
        var passOn = ResponseDefinition()
        passOn.proxy = ProxyDefinition(baseURL: "http://127.0.0.1:\(down.port)")
        let server = try makeServer(mappings: [
            StubMapping(request: RequestPattern(method: .get, url: .urlPath("/api/pets")), response: passOn)
        ])
        let reply = Self.reply(server, "/api/pets")
        #expect(Self.describe(reply) == "deferred", "libcurl answers on its own thread")
        let response = try #require(reply.response(waitingAtMost: .seconds(10)))
        #expect(response.status.code == 502)
        #expect(response.headers["Petmock-Proxy-Error"] == "couldNotConnect")
        #expect(server.admin.requests().first?.responseStatus == 502, "journaled before the reply completed")
        _ = down
    }
}
