import EndpointKit
import HTTPCore
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The transports' own limits, set when each is made, give the same failures.
@Suite(.timeLimit(.minutes(10))) struct TransportLimitTests {
    @Test(arguments: TransportKind.allCases)
    func aBodyOverTheLimitIsTooLarge(over kind: TransportKind) async throws {
        let server = try LiveHTTPServer(TransportRoutes.reply(to:))
        defer { server.stop() }
        let transport = kind.make(maxResponseSize: 1_000)
        let outcome = await TransportConformanceTests.result { () async throws(HTTPClientError) in
            try await transport.send(HTTPClientRequest(url: server.url("/large")))
        }
        guard case .failure(let error) = outcome else {
            Issue.record("a 1 MiB body passed a limit of 1000 bytes")
            return
        }
        #expect(error.kind == .tooLarge)
        let small = try await transport.send(HTTPClientRequest(url: server.url("/binary")))
        #expect(small.body == TransportRoutes.binary)
    }

    @Test(arguments: TransportKind.allCases)
    func theTransportsTimeoutAppliesWhenTheRequestSetsNone(over kind: TransportKind) async throws {
        let peer = try ScriptedPeer()
        let transport = kind.make(timeout: .milliseconds(300))
        let task = Task {
            await TransportConformanceTests.result { () async throws(HTTPClientError) in
                try await transport.send(HTTPClientRequest(url: peer.url))
            }
        }
        // The client may time out before its request was read whole, on a loaded machine.
        let fd = try? await peer.acceptRequest()
        let outcome = await task.value
        if let fd { close(fd) }
        guard case .failure(let error) = outcome else {
            Issue.record("a silent server answered")
            return
        }
        #expect(error.kind == .timedOut)
    }
}
