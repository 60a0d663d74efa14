import HTTPClient
import HTTPCore
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How CurlTransport fails, against real loopback sockets scripted byte by byte.
@Suite(.timeLimit(.minutes(10))) struct CurlTransportFailureTests {
    let transport = CurlTransport(configuration: .init(connectTimeout: .seconds(5), totalTimeout: .seconds(20)))

    func failure(_ request: HTTPClientRequest) async -> HTTPClientError? {
        do {
            _ = try await transport.send(request)
            return nil
        } catch {
            return error
        }
    }

    @Test func refusedConnectionIsCouldNotConnectWithCurlsMessage() async throws {
        let closed = try ClosedPort()
        let port = closed.port
        let error = try #require(await failure(HTTPClientRequest(url: "http://127.0.0.1:\(port)/pets")))
        withExtendedLifetime(closed) {}
        #expect(error.kind == .couldNotConnect)
        #expect(error.curlCode == 7)
        #expect(error.message.contains("127.0.0.1"))
        #expect(error.url == "http://127.0.0.1:\(port)/pets")
    }

    @Test(arguments: ["nope://127.0.0.1/", "http://[::1/", ""])
    func badURLsAreInvalidURL(url: String) async throws {
        let error = try #require(await failure(HTTPClientRequest(url: url)))
        #expect(error.kind == .invalidURL)
        #expect(!error.message.isEmpty)
    }

    @Test func silentServerTimesOut() async throws {
        let peer = try ScriptedPeer()
        let error = try #require(await failure(HTTPClientRequest(url: peer.url, timeout: .milliseconds(300))))
        #expect(error.kind == .timedOut)
        #expect(error.curlCode == 28)
        #expect(error.message.contains("timed out"))
    }

    @Test func resetAfterTheRequestIsConnectionClosed() async throws {
        let peer = try ScriptedPeer()
        async let outcome = failure(HTTPClientRequest(url: peer.url))
        ScriptedPeer.reset(try await peer.acceptRequest())
        let error = try #require(await outcome)
        #expect(error.kind == .connectionClosed)
        #expect(error.message.lowercased().contains("reset") || error.message.contains("Recv failure"))
    }

    @Test func closeWithoutAnswerIsConnectionClosed() async throws {
        let peer = try ScriptedPeer()
        async let outcome = failure(HTTPClientRequest(url: peer.url))
        close(try await peer.acceptRequest())
        let error = try #require(await outcome)
        #expect(error.kind == .connectionClosed)
        #expect(error.curlCode == 52)
    }

    @Test(arguments: [
        "HTTP/1.1 200 OK\r\nContent-Ty", "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n", "HTTP/1.1 2",
    ])
    func aHeadCutOffIsConnectionClosed(_ partial: String) async throws {
        let peer = try ScriptedPeer()
        async let outcome = failure(HTTPClientRequest(url: peer.url))
        let fd = try await peer.acceptRequest()
        ScriptedPeer.write(partial, to: fd)
        close(fd)
        let error = try #require(await outcome, "a response that never completed is no response")
        #expect(error.kind == .connectionClosed)
        // Before a whole status line, libcurl itself says "Empty reply from server".
        if partial.contains("\r\n") { #expect(error.message.contains("response head")) }
    }

    @Test func aBodyShorterThanItsContentLengthIsConnectionClosed() async throws {
        let peer = try ScriptedPeer()
        async let outcome = failure(HTTPClientRequest(url: peer.url))
        let fd = try await peer.acceptRequest()
        ScriptedPeer.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n[1,2", to: fd)
        close(fd)
        let error = try #require(await outcome)
        #expect(error.kind == .connectionClosed)
    }

    @Test func aCompleteHeadWithABodyToTheCloseIsAResponse() async throws {
        let peer = try ScriptedPeer()
        let transport = self.transport
        async let outcome = transport.send(HTTPClientRequest(url: peer.url))
        let fd = try await peer.acceptRequest()
        ScriptedPeer.write("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n[1,2]", to: fd)
        close(fd)
        let response = try await outcome
        #expect(response.status.code == 200)
        #expect(response.body == Array("[1,2]".utf8))
    }

    @Test func garbageIsMalformedResponse() async throws {
        let peer = try ScriptedPeer()
        async let outcome = failure(HTTPClientRequest(url: peer.url))
        let fd = try await peer.acceptRequest()
        ScriptedPeer.write("SSH-2.0-OpenSSH_9.2\r\n\r\nnot http at all\r\n", to: fd)
        let error = try #require(await outcome)
        close(fd)
        #expect(error.kind == .malformedResponse)
    }

    @Test func cancellingTheTaskAbandonsTheTransferAndClosesTheConnection() async throws {
        let peer = try ScriptedPeer()
        let transport = self.transport
        let task = Task { try await transport.send(HTTPClientRequest(url: peer.url)) }
        let fd = try await peer.acceptRequest()
        task.cancel()
        expectCancelled(await task.result)
        // The easy handle was removed, so libcurl closed the half-done connection.
        #expect(try await ScriptedPeer.waitForClose(fd))
        close(fd)
    }

    @Test func cancelledBeforeSendingNeverConnects() async throws {
        let peer = try ScriptedPeer()
        let transport = self.transport
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transport.send(HTTPClientRequest(url: peer.url))
        }
        expectCancelled(await task.result)
    }

    @Test func theTransportStillWorksAfterFailures() async throws {
        let peer = try ScriptedPeer()
        async let first = failure(HTTPClientRequest(url: peer.url))
        ScriptedPeer.reset(try await peer.acceptRequest())
        #expect(await first?.kind == .connectionClosed)
        async let second: HTTPClientResponse = transport.send(HTTPClientRequest(url: peer.url))
        let fd = try await peer.acceptRequest()
        ScriptedPeer.write("HTTP/1.1 204 No Content\r\nX-Peer: raw\r\n\r\n", to: fd)
        let response = try await second
        close(fd)
        #expect(response.status == .noContent)
        #expect(response.headers["X-Peer"] == "raw")
    }
}
