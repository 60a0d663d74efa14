import EndpointKit
import HTTPClient
import HTTPCore
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One table of cases, both transports: `CurlTransport` and `URLSessionTransport` against the
/// same real loopback peers must come to the same outcome.
@Suite(.timeLimit(.minutes(10))) struct TransportConformanceTests {
    @Test(arguments: TransportCase.all, TransportKind.allCases)
    func sameOutcome(_ row: TransportCase, over kind: TransportKind) async throws {
        let outcome = try await Self.outcome(of: row, over: kind.make())
        switch (row.expected(over: kind), outcome) {
        case (.response(let status, let body, let headers), .success(let response)):
            #expect(response.status.code == status)
            #expect(response.body.count == body.count)
            #expect(response.body == body)
            for (name, value) in headers {
                #expect(response.headers[name] == value, "header '\(name)'")
            }
        case (.failure(let kind), .failure(let error)):
            #expect(error.kind == kind, "\(error)")
            #expect(!error.message.isEmpty)
            #expect(error.url.hasPrefix("http://127.0.0.1:"))
        case (.response, .failure(let error)):
            Issue.record("expected a response, got \(error.kind): \(error)")
        case (.failure(let kind), .success(let response)):
            Issue.record("expected \(kind), got a response with status \(response.status)")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func urlsThatCannotBeSentAreInvalidURL(over kind: TransportKind) async throws {
        let transport = kind.make()
        for url in ["nope://127.0.0.1/", "http://[::1/", ""] {
            let outcome = await Self.result { () async throws(HTTPClientError) in
                try await transport.send(HTTPClientRequest(url: url))
            }
            guard case .failure(let error) = outcome else {
                Issue.record("'\(url)' was sent")
                continue
            }
            #expect(error.kind == .invalidURL, "'\(url)': \(error)")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func cancelledBeforeSendingNeverConnects(over kind: TransportKind) async throws {
        let peer = try ScriptedPeer()
        let transport = kind.make()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await Self.result { () async throws(HTTPClientError) in
                try await transport.send(HTTPClientRequest(url: peer.url))
            }
        }
        guard case .failure(let error) = await task.value else {
            Issue.record("a request sent from a cancelled task was answered")
            return
        }
        #expect(error.kind == .cancelled)
    }

    /// Runs `row` over `transport` against the peer it names.
    static func outcome(
        of row: TransportCase, over transport: any HTTPTransport
    ) async throws -> Result<HTTPClientResponse, HTTPClientError> {
        switch row.peer {
        case .routes:
            let server = try LiveHTTPServer(TransportRoutes.reply(to:))
            defer { server.stop() }
            return await result { () async throws(HTTPClientError) in
                try await transport.send(row.request(baseURL: server.baseURL))
            }
        case .closedPort:
            let closed = try ClosedPort()
            let outcome = await result { () async throws(HTTPClientError) in
                try await transport.send(row.request(baseURL: "http://127.0.0.1:\(closed.port)"))
            }
            withExtendedLifetime(closed) {}
            return outcome
        case .silent, .reset, .closeWithoutAnswer, .garbage, .cancelAfterRequest:
            return try await scripted(row, over: transport)
        }
    }

    private static func scripted(
        _ row: TransportCase, over transport: any HTTPTransport
    ) async throws -> Result<HTTPClientResponse, HTTPClientError> {
        let peer = try ScriptedPeer()
        let request = row.request(baseURL: "http://127.0.0.1:\(peer.port)")
        let task = Task {
            await result { () async throws(HTTPClientError) in try await transport.send(request) }
        }
        // A client that gave up (its timeout ran out on a loaded machine) before the whole request
        // was read leaves no connection to script: its outcome is all there is to check.
        guard let fd = try? await peer.acceptRequest() else { return await task.value }
        switch row.peer {
        case .reset:
            ScriptedPeer.reset(fd)
            return await task.value
        case .closeWithoutAnswer:
            close(fd)
            return await task.value
        case .garbage:
            ScriptedPeer.write("SSH-2.0-OpenSSH_9.2\r\n\r\nnot http at all\r\n", to: fd)
            let outcome = await task.value
            close(fd)
            return outcome
        case .cancelAfterRequest:
            task.cancel()
            let outcome = await task.value
            close(fd)
            return outcome
        default:
            let outcome = await task.value
            close(fd)
            return outcome
        }
    }

    static func result(
        _ body: () async throws(HTTPClientError) -> HTTPClientResponse
    ) async -> Result<HTTPClientResponse, HTTPClientError> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }
}
