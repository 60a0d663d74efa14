import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import JSONKit
import MockEngine
import Platform
import StubServerKit
import TestSupport
import Testing

@Suite struct RedactionTests {
    @Test func secretsReachTheApiAndTheCallerButNeverAFile() async throws {
        let seen = Locked<HTTPHeaders>(HTTPHeaders())
        let upstream = try startUpstream { request in
            seen.withLock { $0 = request.headers }
            return .response(
                HTTPResponse(
                    headers: [
                        "Content-Type": "application/json", "Set-Cookie": "session=s3cr3t-cookie",
                        "X-Upstream-Token": "s3cr3t-token", "X-Request-Id": "abc",
                    ], body: Array(#"{"ok":true}"#.utf8)))
        }
        let stubs = try TemporaryDirectory(prefix: "redaction")
        defer {
            upstream.stop()
            stubs.remove()
        }
        let server = try startStubServer(stubs: stubs.path)
        defer { server.stop() }
        try server.admin.startRecording(
            RecordingConfiguration(
                targetBaseURL: "http://127.0.0.1:\(upstream.port)", redactedHeaders: ["x-upstream-token", "X-Api-Key"],
                capturedHeaders: [
                    CapturedHeader("Authorization"), CapturedHeader("X-Api-Key"), CapturedHeader("Accept"),
                ]
            ))
        let response = try await TestClient().get(
            server.baseURL + "/account",
            headers: [
                "Authorization": "Bearer s3cr3t-bearer", "Cookie": "session=s3cr3t-cookie",
                "X-Api-Key": "s3cr3t-key", "Accept": "application/json",
            ])
        let result = try server.admin.stopRecording()

        #expect(seen.withLock { $0["Authorization"] } == "Bearer s3cr3t-bearer", "forwarded to the API")
        #expect(seen.withLock { $0["X-Api-Key"] } == "s3cr3t-key")
        #expect(response.headers["Set-Cookie"] == "session=s3cr3t-cookie", "passed to the caller")
        let file = try readText(try #require(result.mappingFiles.first))
        #expect(!file.contains("s3cr3t"))
        let mapping = try #require(result.mappings.first)
        #expect(mapping.request.headers.map(\.name) == ["Accept"], "redacted headers are never captured")
        #expect(mapping.response.headers.map(\.name) == ["Content-Type", "X-Request-Id"])
    }
}

@Suite struct ScenarioTests {
    /// An upstream whose answer to `GET /counter` changes every time.
    static func counter() throws -> LiveHTTPServer {
        let count = Locked(0)
        return try startUpstream { _ in
            let value = count.withLock { count in
                count += 1
                return count
            }
            return .response(HTTPResponse(text: "call \(value)"))
        }
    }

    @Test func repeatsBecomeAScenarioThatReplaysInOrder() async throws {
        let upstream = try Self.counter()
        let stubs = try TemporaryDirectory(prefix: "scenarios")
        defer {
            upstream.stop()
            stubs.remove()
        }
        let recorder = try Recorder(
            configuration: RecordingConfiguration(repeatsAsScenarios: true), stubsDirectory: stubs.path)
        let transport = RecordingTransport(wrapping: TestClient().transport, recorder: recorder)
        for _ in 0..<3 {
            _ = try await transport.send(HTTPClientRequest(url: "http://127.0.0.1:\(upstream.port)/counter"))
        }
        let result = recorder.finish()
        #expect(result.mappingFiles.map { FileSystem.lastComponent(of: $0) } == ["get-counter.json"])
        let steps = result.mappings
        #expect(steps.map(\.scenarioName) == Array(repeating: "scenario-get-counter", count: 3))
        #expect(steps.map(\.requiredScenarioState) == ["Started", "scenario-get-counter-2", "scenario-get-counter-3"])
        #expect(steps.map(\.newScenarioState) == ["scenario-get-counter-2", "scenario-get-counter-3", nil])
        #expect(Set(steps.map(\.id)).count == 3)

        let replay = try startStubServer(stubs: stubs.path)
        defer { replay.stop() }
        var answers: [String] = []
        for _ in 0..<4 {
            answers.append(
                String(decoding: try await TestClient().get(replay.baseURL + "/counter").body, as: UTF8.self))
        }
        #expect(answers == ["call 1", "call 2", "call 3", "call 3"])
    }

    @Test func withoutScenariosTheFirstAnswerIsKept() async throws {
        let upstream = try Self.counter()
        defer { upstream.stop() }
        let recorder = try Recorder(configuration: RecordingConfiguration(), stubsDirectory: nil)
        let transport = RecordingTransport(wrapping: TestClient().transport, recorder: recorder)
        var events: [RecordingEvent] = []
        for _ in 0..<3 {
            _ = try await transport.send(HTTPClientRequest(url: "http://127.0.0.1:\(upstream.port)/counter"))
        }
        let result = recorder.finish()
        events = recorder.record(
            RecordedExchange(
                method: .get, url: "/late", headers: HTTPHeaders(), body: [],
                upstream: UpstreamResult(url: "", outcome: .success(HTTPClientResponse(status: .ok)), duration: .zero)))
        #expect(result.mappings.count == 1 && result.ignoredRepeats == 2 && result.mappingFiles.isEmpty)
        #expect(result.mappings.first?.response.body == .text("call 1"))
        #expect(events.isEmpty, "nothing is recorded after finish")
    }
}
