import HTTPCore
import JSONKit
import MockEngine
import StubServerKit
import TestSupport
import Testing

/// `/__admin/recordings/...` over HTTP, in WireMock's shapes.
@Suite struct AdminRecordingTests {
    static func admin(
        _ client: TestClient, _ method: HTTPMethod, _ server: StubServer, _ path: String, _ body: String = ""
    ) async throws -> (status: Int, json: JSONValue) {
        let url = server.baseURL + "/__admin/recordings/" + path
        let response =
            method == .get ? try await client.get(url) : try await client.send(method, url, json: body)
        return (response.status.code, (try? JSONValue(parsing: response.body)) ?? .null)
    }

    @Test func startRecordStopAndStatus() async throws {
        let api = try PetAPIUpstream()
        let stubs = try TemporaryDirectory(prefix: "admin-recording")
        let server = try startStubServer(stubs: stubs.path)
        defer {
            server.stop()
            api.stop()
            stubs.remove()
        }
        let client = TestClient()
        #expect(try await Self.admin(client, .get, server, "status").json == ["status": "NeverStarted"])
        let started = try await Self.admin(
            client, .post, server, "start", #"{"targetBaseUrl": "\#(api.baseURL)", "transformers": ["x"]}"#)
        #expect(started.status == 200)
        #expect(started.json["warnings"]?.arrayValue?.count == 1, "an unsupported field is reported, not ignored")
        #expect(try await Self.admin(client, .get, server, "status").json == ["status": "Recording"])
        let twice = try await Self.admin(client, .post, server, "start", #"{"targetBaseUrl": "\#(api.baseURL)"}"#)
        #expect(twice.status == 409)

        let vets = try await client.get(server.baseURL + "/api/vets/1")
        _ = try await client.get(server.baseURL + "/api/vets/1")
        #expect(vets.status == .ok && vets.headers["Matched-Stub-Id"] == nil, "proxied while recording")

        let stopped = try await Self.admin(client, .post, server, "stop")
        #expect(stopped.status == 200)
        let mappings = try #require(stopped.json["mappings"]?.arrayValue)
        // WireMock's recording API makes repeats scenarios unless told otherwise.
        #expect(mappings.count == 2)
        #expect(
            mappings.map { $0["scenarioName"] } == [
                .string("scenario-get-api-vets-1"), .string("scenario-get-api-vets-1"),
            ])
        #expect(try await Self.admin(client, .get, server, "status").json == ["status": "Stopped"])
        #expect(try await Self.admin(client, .post, server, "stop").status == 409)
        #expect(try mappingFileNames(stubs.path) == ["get-api-vets-1.json"])

        let served = try await client.get(server.baseURL + "/api/vets/1")
        #expect(served.headers["Matched-Stub-Id"] == mappings.first?["id"]?.stringValue, "the recording serves")
        #expect(served.body == vets.body)
    }

    @Test func startRefusesABadSpecification() async throws {
        let server = try startStubServer(stubs: nil)
        defer { server.stop() }
        let client = TestClient()
        let missing = try await Self.admin(client, .post, server, "start", "{}")
        #expect(missing.status == 422)
        #expect(missing.json["errors"]?[0]?["title"]?.stringValue?.contains("targetBaseUrl") == true)
        #expect(try await Self.admin(client, .post, server, "start", #"{"targetBaseUrl": "ftp://x"}"#).status == 422)
        #expect(try await Self.admin(client, .post, server, "start", #"{"targetBaseUrl": 5}"#).status == 422)
        #expect(try await Self.admin(client, .post, server, "start", "not json").status == 400)
        #expect(try await Self.admin(client, .get, server, "status").json == ["status": "NeverStarted"])
    }

    @Test func snapshotRecordsWhatWasProxied() async throws {
        let api = try PetAPIUpstream()
        let server = try startStubServer(stubs: nil) { $0.proxyUnmatched = api.baseURL }
        defer {
            server.stop()
            api.stop()
        }
        let client = TestClient()
        let pets = try await client.get(server.baseURL + "/api/pets")
        let events = try await client.get(server.baseURL + "/__admin/requests")
        let logged = try #require(try JSONValue(parsing: events.body)["requests"]?[0])
        #expect(logged["petmockProxied"]?["url"] == .string(api.baseURL + "/api/pets"))
        #expect(logged["response"]?["status"] == 200)

        let snapshot = try await Self.admin(
            client, .post, server, "snapshot", #"{"outputFormat": "IDS", "persist": false}"#)
        #expect(snapshot.status == 200)
        let ids = try #require(snapshot.json["ids"]?.arrayValue)
        #expect(ids.count == 1)
        let served = try await client.get(server.baseURL + "/api/pets")
        #expect(served.headers["Matched-Stub-Id"] == ids.first?.stringValue && served.body == pets.body)
    }
}
