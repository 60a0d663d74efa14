import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import JSONKit
import MockEngine
import StubServerKit
import TestSupport
import Testing

/// An upstream that is down, resets, says nothing, sends garbage or is too slow: the caller
/// gets the same failure where it can be passed on, else a clear 502 (504 for a timeout); none
/// is recorded unless failures are asked for.
@Suite struct ProxyFailureTests {
    /// A recording server in front of `target`. The upstream timeout is ample unless a test
    /// waits it out: on a busy machine libcurl may not run again within a short one, and then
    /// reports a refused connection as a timeout.
    static func recording(
        _ target: String, recordFailures: Bool = false, timeout: Duration = .seconds(10)
    ) throws -> StubServer {
        let server = try startStubServer(stubs: nil)
        try server.admin.startRecording(
            RecordingConfiguration(targetBaseURL: target, recordFailures: recordFailures, timeout: timeout))
        return server
    }

    /// An upstream that breaks every connection this way.
    static func broken(_ fault: HTTPFault) throws -> LiveHTTPServer {
        try startUpstream { _ in return .fault(fault) }
    }

    @Test func anUpstreamThatIsDownGivesA502WithAClearBody() async throws {
        let down = try ClosedPort()
        let server = try Self.recording("http://127.0.0.1:\(down.port)")
        defer {
            server.stop()
            _ = down
        }
        let response = try await TestClient().get(server.baseURL + "/api/pets", headers: ["Accept": "application/json"])
        #expect(response.status.code == 502)
        #expect(response.headers[ProxyReply.errorHeader] == "couldNotConnect")
        let body = try JSONValue(parsing: response.body)
        #expect(body["code"] == 502)
        #expect(body["message"]?.stringValue?.contains("could not connect to the live API") == true)
        let text = try await TestClient().get(server.baseURL + "/api/pets")
        #expect(String(decoding: text.body, as: UTF8.self).hasPrefix("petmock: could not connect to the live API"))
        let result = try server.admin.stopRecording()
        #expect(result.mappings.isEmpty && result.unrecordedFailures == 2 && result.ignoredRepeats == 0)
        #expect(server.admin.requests().first?.upstream?.failure?.kind == .couldNotConnect)
    }

    @Test(arguments: [(HTTPFault.connectionReset, "reset"), (.emptyResponse, "empty")])
    func aBrokenConnectionIsBrokenForTheCallerToo(_ fault: HTTPFault, _ name: String) async throws {
        let upstream = try Self.broken(fault)
        let server = try Self.recording("http://127.0.0.1:\(upstream.port)")
        defer {
            server.stop()
            upstream.stop()
        }
        let error = await TestClient().failure(server.baseURL + "/api/pets")
        #expect(error?.kind == .connectionClosed, "\(name): \(String(describing: error))")
        #expect(try server.admin.stopRecording().mappings.isEmpty)
    }

    @Test func garbageGivesA502() async throws {
        let upstream = try Self.broken(.randomDataThenClose(byteCount: 200))
        let server = try Self.recording("http://127.0.0.1:\(upstream.port)")
        defer {
            server.stop()
            upstream.stop()
        }
        let response = try await TestClient().get(server.baseURL + "/x")
        #expect(response.status.code == 502)
        #expect(try server.admin.stopRecording().mappings.isEmpty)
    }

    @Test func aSlowUpstreamGivesA504AfterTheTimeout() async throws {
        let upstream = try startUpstream { _ in
            return .response(HTTPResponse(text: "late")).delayed(by: .fixed(.seconds(5)))
        }
        let server = try Self.recording(
            "http://127.0.0.1:\(upstream.port)", recordFailures: true, timeout: .milliseconds(300))
        defer {
            server.stop()
            upstream.stop()
        }
        let response = try await TestClient().get(server.baseURL + "/slow")
        #expect(response.status.code == 504 && response.headers[ProxyReply.errorHeader] == "timedOut")
        let mapping = try #require(try server.admin.stopRecording().mappings.first)
        #expect(mapping.response.status == 504)
        #expect((mapping.response.fixedDelayMilliseconds ?? 0) >= 300, "replayed after as long a wait")
    }

    @Test func recordedFailuresReplayAsTheCallerSawThem() async throws {
        let upstream = try Self.broken(.connectionReset)
        let stubs = try TemporaryDirectory(prefix: "failures")
        defer {
            upstream.stop()
            stubs.remove()
        }
        let server = try startStubServer(stubs: stubs.path)
        try server.admin.startRecording(
            RecordingConfiguration(targetBaseURL: "http://127.0.0.1:\(upstream.port)", recordFailures: true))
        _ = await TestClient().failure(server.baseURL + "/flaky")
        let closed = try ClosedPort()
        defer { _ = closed }
        let down = "http://127.0.0.1:\(closed.port)"
        let result = try server.admin.stopRecording()
        server.stop()
        #expect(result.mappings.map(\.response.fault) == [.connectionResetByPeer])
        #expect(try readText(stubs.file("mappings/get-flaky.json")).contains("\"fault\": \"CONNECTION_RESET_BY_PEER\""))

        // The 502 of an upstream that is down, recorded, replays as the same 502.
        let second = try startStubServer(stubs: stubs.path)
        try second.admin.startRecording(RecordingConfiguration(targetBaseURL: down, recordFailures: true))
        let live = try await TestClient().get(second.baseURL + "/gone", headers: ["Accept": "application/json"])
        _ = try second.admin.stopRecording()
        second.stop()

        let replay = try startStubServer(stubs: stubs.path)
        defer { replay.stop() }
        #expect(await TestClient().failure(replay.baseURL + "/flaky")?.kind == .connectionClosed)
        let replayed = try await TestClient().get(replay.baseURL + "/gone")
        #expect(replayed.status.code == 502 && replayed.body == live.body)
        #expect(replayed.headers[ProxyReply.errorHeader] == "couldNotConnect")
    }
}
