import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import JSONKit
import Platform
import TestSupport
import Testing

@testable import MockEngine
@testable import StubServerKit

/// Record from the real Pet API through the proxy, serve the recording back, and compare:
/// bodies byte for byte, kept headers field for field.
@Suite struct RecordReplayTests {
    typealias Exchange = (method: HTTPMethod, path: String, body: String?)

    static let requests: [Exchange] = [
        (.get, "/api/pets", nil), (.get, "/api/vets/1", nil), (.get, "/api/vets/2", nil),
        (.get, "/api/vets/999", nil), (.get, "/api/pets/2", nil), (.get, "/health", nil),
        (.post, "/api/pets", #"{"firstName":"Zed","lastName":"Ray","vetId":3}"#),
    ]

    @Test func recordThroughTheProxyThenReplayTheSame() async throws {
        let api = try PetAPIUpstream()
        let stubs = try TemporaryDirectory(prefix: "recorded")
        defer {
            api.stop()
            stubs.remove()
        }
        let recorder = try startStubServer(stubs: stubs.path)
        try recorder.admin.startRecording(RecordingConfiguration(targetBaseURL: api.baseURL))
        let client = TestClient()
        var live: [HTTPClientResponse] = []
        for request in Self.requests {
            live.append(try await client.send(request, to: recorder.baseURL))
        }
        await recorder.admin.proxiedRequestsFinished()
        let result = try recorder.admin.stopRecording()
        let upstreamPets = recorder.admin.requests().last?.upstream?.response
        recorder.stop()
        #expect(result.mappings.count == Self.requests.count)
        #expect(
            try mappingFileNames(stubs.path).sorted() == [
                "get-api-pets-2.json", "get-api-pets.json", "get-api-vets-1.json", "get-api-vets-2.json",
                "get-api-vets-999.json", "get-health.json", "post-api-pets.json",
            ])
        // The live API sent gzip (the transport asked for it); the recording holds it decoded.
        #expect(upstreamPets?.contentEncoding == "gzip" && live[0].contentEncoding == nil)
        #expect(upstreamPets?.body == live[0].body)
        let pets = try readText(stubs.file("mappings/get-api-pets.json"))
        #expect(pets.contains("\"jsonBody\": [\n      {\n        \"firstName\": \"Rex\""))
        #expect(!pets.contains("Content-Encoding") && !pets.contains("\"Date\""))

        let replay = try startStubServer(stubs: stubs.path)
        defer { replay.stop() }
        #expect(replay.loadProblems.isEmpty)
        for (request, recorded) in zip(Self.requests, live) {
            let replayed = try await client.send(request, to: replay.baseURL)
            #expect(replayed.status.code == recorded.status.code, "\(request.path)")
            #expect(replayed.body == recorded.body, "\(request.path): body byte for byte")
            #expect(keptHeaders(replayed.headers) == keptHeaders(recorded.headers), "\(request.path): headers")
            #expect(replayed.headers["Matched-Stub-Id"] != nil)
        }
    }

    @Test func aGzipUpstreamIsStoredDecodedAndLargeTextGoesToFiles() async throws {
        let page = "<html><body>" + String(repeating: "<p>pets and vets</p>", count: 400) + "</body></html>"
        let upstream = try startUpstream { request in
            switch request.path {
            case "/page":
                return .response(
                    HTTPResponse(
                        headers: ["Content-Type": "text/html; charset=utf-8"], body: Array(page.utf8),
                        compression: .gzipIfAccepted))
            default:
                return .response(
                    HTTPResponse(
                        headers: ["Content-Type": "image/png"], body: [0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF, 0x10],
                        compression: .identity))
            }
        }
        let stubs = try TemporaryDirectory(prefix: "recorded-gzip")
        defer {
            upstream.stop()
            stubs.remove()
        }
        let recorder = try Recorder(
            configuration: RecordingConfiguration(textBodyFileThreshold: 1024), stubsDirectory: stubs.path)
        let transport = RecordingTransport(wrapping: TestClient().transport, recorder: recorder)
        let base = "http://127.0.0.1:\(upstream.port)"
        let html = try await transport.send(HTTPClientRequest(url: base + "/page"))
        let image = try await transport.send(HTTPClientRequest(url: base + "/logo.png"))
        #expect(html.contentEncoding == "gzip")
        let result = recorder.finish()
        #expect(result.bodyFiles.map { FileSystem.lastComponent(of: $0) } == ["get-page.html", "get-logo-png.png"])
        #expect(try FileSystem.read(stubs.file("__files/get-page.html")) == Array(page.utf8))
        #expect(try FileSystem.read(stubs.file("__files/get-logo-png.png")) == image.body)
        let mapping = try readText(stubs.file("mappings/get-page.json"))
        #expect(mapping.contains("\"bodyFileName\": \"get-page.html\"") && !mapping.contains("gzip"))

        let replay = try startStubServer(stubs: stubs.path)
        defer { replay.stop() }
        let client = TestClient()
        #expect(try await client.get(replay.baseURL + "/page").body == Array(page.utf8))
        let replayedImage = try await client.get(replay.baseURL + "/logo.png")
        #expect(replayedImage.body == image.body && replayedImage.headers["Content-Type"] == "image/png")
    }

    @Test func aDeflateUpstreamIsStoredDecodedAsJSON() async throws {
        let json = #"[{"firstName":"Rex","lastName":"Smith","vetId":1}]"#
        let coded = try #require(Gzip.compress(Array(json.utf8), wrapper: .zlib))
        #expect(coded != Array(json.utf8) && coded.first == 0x78, "a zlib stream, as Content-Encoding: deflate means")
        let upstream = try startUpstream { _ in
            return .response(
                HTTPResponse(
                    headers: ["Content-Type": "application/json", "Content-Encoding": "deflate"], body: coded,
                    compression: .identity))
        }
        let stubs = try TemporaryDirectory(prefix: "recorded-deflate")
        defer {
            upstream.stop()
            stubs.remove()
        }
        let recorder = try Recorder(configuration: RecordingConfiguration(), stubsDirectory: stubs.path)
        let transport = RecordingTransport(wrapping: TestClient().transport, recorder: recorder)
        let live = try await transport.send(HTTPClientRequest(url: "http://127.0.0.1:\(upstream.port)/api/pets"))
        #expect(live.contentEncoding == "deflate" && live.body == Array(json.utf8))
        _ = recorder.finish()
        let mapping = try readText(stubs.file("mappings/get-api-pets.json"))
        #expect(mapping.contains("\"jsonBody\"") && mapping.contains("\"firstName\": \"Rex\""))
        #expect(!mapping.contains("deflate") && !mapping.contains("Content-Encoding"))

        let replay = try startStubServer(stubs: stubs.path)
        defer { replay.stop() }
        let replayed = try await TestClient().get(replay.baseURL + "/api/pets")
        #expect(try JSONValue(parsing: replayed.body) == JSONValue(parsing: Array(json.utf8)))
    }

    @Test func requestsProxiedWhileServingAreMarkedInTheJournalAndSnapshotted() async throws {
        let api = try PetAPIUpstream()
        let stubs = try TemporaryDirectory(prefix: "proxy-unmatched")
        defer {
            api.stop()
            stubs.remove()
        }
        try writeText(
            stubs.file("mappings/pets.json"),
            #"{"request": {"method": "GET", "url": "/api/pets"}, "response": {"status": 200, "jsonBody": []}}"#)
        let server = try startStubServer(stubs: stubs.path) { $0.proxyUnmatched = api.baseURL }
        defer { server.stop() }
        let client = TestClient()
        #expect(try await client.get(server.baseURL + "/api/pets").body == Array("[]".utf8), "a stub still answers")
        let vet = try await client.get(server.baseURL + "/api/vets/3")
        #expect(vet.status == .ok && vet.headers["Matched-Stub-Id"] == nil)
        #expect(server.engine.proxy.loopDrivenCount == 1, "passed on from the request's own event loop")
        #expect(server.engine.proxy.nativeCount == 1, "by petmock's own client (a numeric http address)")
        let journal = server.admin.requests()
        #expect(journal.map(\.wasProxied) == [true, false])
        #expect(journal.first?.upstream?.response?.body == vet.body)
        #expect(server.admin.unmatchedRequests().count == 1)

        let snapshot = try server.admin.snapshotRecording()
        #expect(snapshot.mappings.map(\.name) == ["GET /api/vets/3"])
        #expect(snapshot.mappingFiles.map { FileSystem.lastComponent(of: $0) } == ["get-api-vets-3.json"])
        let again = try await client.get(server.baseURL + "/api/vets/3")
        #expect(again.headers["Matched-Stub-Id"] == snapshot.mappings.first?.id, "the snapshot serves at once")
        #expect(again.body == vet.body)
    }
}

extension TestClient {
    /// Sends one of the table's requests to a base URL.
    func send(_ request: RecordReplayTests.Exchange, to base: String) async throws -> HTTPClientResponse {
        guard let body = request.body else { return try await get(base + request.path) }
        return try await send(request.method, base + request.path, json: body)
    }
}
