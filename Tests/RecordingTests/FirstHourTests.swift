import Foundation
import HTTPClient
import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import MockEngine
import Platform
import StubServerKit
import TestSupport
import Testing

/// A new user's first hour with the recorder, with the real binaries.
@Suite(.serialized) struct FirstHourTests {
    /// Recording into a folder whose hand-written stub answers the same request: the summary
    /// (and `validate`) says the recording never answers, naming both files.
    /// docker-compose passes the admin token in the environment, and its health check sends it.
    @Test func theAdminTokenCanComeFromTheEnvironment() async throws {
        let server = try await ServerProcess(
            "petmock", ["serve", "--port", "0", "--stubs", "Stubs"], environment: ["PETMOCK_ADMIN_TOKEN": "s3cret"])
        defer { server.terminate() }
        let client = CurlTransport()
        let health = server.url + "/__admin/health"
        #expect(try await client.send(HTTPClientRequest(method: .get, url: health)).status.code == 401)
        let allowed = try await client.send(
            HTTPClientRequest(method: .get, url: health, headers: ["Authorization": "Bearer s3cret"]))
        #expect(allowed.status.code == 200)
    }

    /// `validate` colours its severities on a terminal, as petcontract does, and not with NO_COLOR
    /// or through a pipe.
    @Test func validateIsColouredOnATerminalOnly() async throws {
        let folder = try TemporaryDirectory(prefix: "validate-colour")
        defer { folder.remove() }
        try writeText(
            folder.file("mappings/bad.json"),
            #"{"request": {"method": "GET", "url": "/x"}, "response": {"status": "200"}}"#)
        let petmock = try BuiltTools.path(of: "petmock")
        let command = "\(petmock) validate --stubs \(folder.path)"
        let terminal = try await ToolProcess.run(
            executable: "/usr/bin/script", ["-qec", command, "/dev/null"],
            environment: ["TERM": "xterm", "NO_COLOR": ""])
        #expect(terminal.stdout.contains("\u{1B}[1;31merror\u{1B}[0m: $.response.status"), "\(terminal.stdout)")
        let plain = try await ToolProcess.run(
            executable: "/usr/bin/script", ["-qec", command, "/dev/null"],
            environment: ["TERM": "xterm", "NO_COLOR": "1"])
        #expect(plain.stdout.contains("bad.json: error: $.response.status") && !plain.stdout.contains("\u{1B}["))
        let piped = try await ToolProcess.run("petmock", ["validate", "--stubs", folder.path])
        #expect(piped.status == 1 && !piped.stdout.contains("\u{1B}["))
    }

    /// Mapping files put straight into the stub folder (WireMock reads `mappings/` only):
    /// `validate` names the mistake and fails, `serve` names it before serving nothing.
    @Test func mappingFilesOutsideMappingsAreNamedByValidateAndServe() async throws {
        let folder = try TemporaryDirectory(prefix: "flat-stubs")
        defer { folder.remove() }
        for name in ["a", "b", "c"] {
            try writeText(folder.file("\(name).json"), #"{"request": {"url": "/\#(name)"}, "response": {}}"#)
        }
        let message =
            "\(folder.path) has 3 JSON files but no mappings/ folder: WireMock reads mappings from "
            + "\(folder.path)/mappings/ — move them there"
        let validate = try await ToolProcess.run("petmock", ["validate", "--stubs", folder.path])
        #expect(validate.status == 1, "\(validate.stdout)")
        #expect(validate.stdout.contains(message), "\(validate.stdout)")
        // Read once the server has stopped: stderr and the stdout readiness line are two pipes,
        // and the warning may still be on its way when the server is ready.
        let server = try await ServerProcess("petmock", ["serve", "--port", "0", "--stubs", folder.path])
        await server.stop()
        let errors = server.finalErrorOutput()
        #expect(errors.contains(message), "\(errors)")
        try FileManager.default.createDirectory(atPath: folder.file("mappings"), withIntermediateDirectories: false)
        let empty = try await ToolProcess.run("petmock", ["validate", "--stubs", folder.path])
        #expect(empty.status == 1 && empty.stdout.contains("mappings/ holds no mapping files"), "\(empty.stdout)")
    }

    @Test func aRecordingHiddenByAHandWrittenStubIsReported() async throws {
        let api = try PetAPIUpstream()
        let folder = try TemporaryDirectory(prefix: "record-shadow")
        defer {
            api.stop()
            folder.remove()
        }
        let stubs = folder.file("Stubs")
        try writeText(
            stubs + "/mappings/pets.json", try readText(BuiltTools.repositoryRoot.path + "/Stubs/mappings/pets.json"))
        let recorder = try await ServerProcess(
            "petmock", ["record", "--target", api.baseURL, "--stubs", stubs, "--port", "0", "--no-verify"])
        let pets = try await TestClient().get(recorder.url + "/api/pets")
        #expect(pets.status == .ok)
        #expect(await recorder.interrupt() == 0, "\(recorder.errorOutput)")
        let output = recorder.finalOutput().joined(separator: "\n")
        let warning =
            "\(stubs)/mappings/get-api-pets.json: warning: $.request: never answers: \(stubs)/mappings/pets.json "
            + "($.mappings[0]) matches every request this one does and takes precedence (priority 5, newer)"
        #expect(output.contains(warning), "\(output)")
        let validate = try await ToolProcess.run("petmock", ["validate", "--stubs", stubs])
        #expect(validate.status == 0 && validate.stdout.contains(warning), "\(validate.stdout)")
        #expect(validate.stdout.contains("0 errors, 1 warning"))
    }
}

/// Failures leave nothing behind and record what the app saw.
@Suite(.serialized) struct FailureLeftoverTests {
    /// This process's name as `/proc` gives it, which the advice names as the port's holder.
    static var ownName: String? {
        guard let bytes = try? FileSystem.read("/proc/self/comm") else { return nil }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aRecordedGatewayErrorIsByteForByteWhatTheAppWasAnswered() async throws {
        let closed = try ClosedPort()
        let folder = try TemporaryDirectory(prefix: "record-failure")
        defer { folder.remove() }
        let stubs = folder.file("Recorded")
        let recorder = try await ServerProcess(
            "petmock",
            [
                "record", "--target", "http://127.0.0.1:\(closed.port)", "--stubs", stubs, "--port", "0",
                "--record-failures", "--no-verify",
            ])
        // libcurl asks for */*: the app is answered in plain text.
        let live = try await TestClient().get(recorder.url + "/api/pets")
        #expect(await recorder.interrupt() == 0, "\(recorder.errorOutput)")
        #expect(live.status.code == 502 && live.headers["Content-Type"]?.hasPrefix("text/plain") == true)

        let replay = try startStubServer(stubs: stubs)
        defer { replay.stop() }
        let replayed = try await TestClient().get(replay.baseURL + "/api/pets")
        #expect(replayed.status == live.status)
        #expect(replayed.headers["Content-Type"] == live.headers["Content-Type"])
        #expect(replayed.headers[ProxyReply.errorHeader] == live.headers[ProxyReply.errorHeader])
        #expect(replayed.body == live.body, "\(String(decoding: replayed.body, as: UTF8.self))")
    }

    @Test func aBusyPortLeavesNoFolderNoDatabaseAndSaysWhatToDo() async throws {
        let busy = try startUpstream { _ in return .response(HTTPResponse(text: "busy")) }
        let folder = try TemporaryDirectory(prefix: "busy-port")
        defer {
            busy.stop()
            folder.remove()
        }
        let port = "\(busy.port)"
        let holder = Self.ownName.map { "(port \(port) is held by \($0), pid " }

        let database = folder.file("petapi.sqlite")
        let api = try await ToolProcess.run("petapi", ["serve", "--port", port, "--db", database])
        #expect(api.status == 2, "\(api.stderr)")
        #expect(api.stderr.contains("Address already in use; pass --port 0 to listen on a free port"), "\(api.stderr)")
        if let holder { #expect(api.stderr.contains(holder), "\(api.stderr)") }
        #expect(FileSystem.kind(of: database) == nil, "no database made for a server that never listened")

        let fresh = folder.file("New")
        let existing = folder.file("Existing")
        try FileSystem.createDirectory(existing)
        for stubs in [fresh, existing] {
            let record = try await ToolProcess.run(
                "petmock", ["record", "--target", "http://127.0.0.1:9", "--stubs", stubs, "--port", port])
            #expect(record.status == 2, "\(record.stderr)")
            #expect(record.stderr.contains("pass --port 0 to listen on a free port"), "\(record.stderr)")
            if let holder { #expect(record.stderr.contains(holder), "\(record.stderr)") }
        }
        #expect(FileSystem.kind(of: fresh) == nil, "the folder petmock made is gone again")
        #expect(try FileSystem.names(in: existing).isEmpty, "no empty mappings/ or __files/")

        let serve = try await ToolProcess.run("petmock", ["serve", "--stubs", existing, "--port", port])
        #expect(serve.status == 2 && serve.stderr.contains("pass --port 0"), "\(serve.stderr)")
    }

    @Test func aRecordingThatRecordedNothingLeavesNothing() async throws {
        let closed = try ClosedPort()
        let folder = try TemporaryDirectory(prefix: "record-nothing")
        defer { folder.remove() }
        let stubs = folder.file("Recorded")
        let recorder = try await ServerProcess(
            "petmock", ["record", "--target", "http://127.0.0.1:\(closed.port)", "--stubs", stubs, "--port", "0"])
        let answer = try await TestClient().get(recorder.url + "/api/pets")
        #expect(answer.status.code == 502)
        #expect(await recorder.interrupt() == 0, "\(recorder.errorOutput)")
        #expect(recorder.finalOutput().joined().contains("recorded 0 mappings"))
        #expect(FileSystem.kind(of: stubs) == nil, "the folder petmock made is gone again")
        // The crawl's recorder makes nothing before its first write either.
        let crawl = try await ToolProcess.run(
            "petmock", ["record", "--crawl", "--target", "http://127.0.0.1:\(closed.port)/api", "--stubs", stubs])
        #expect(crawl.status == 2)
        #expect(FileSystem.kind(of: stubs) == nil)
    }
}

/// `--crawl` takes the API's base URL; given the origin, where every request answers 404,
/// it records nothing and says what to pass.
@Suite(.serialized) struct CrawlTargetTests {
    @Test func notFoundAnswersAreHeldUntilTheApiIsFound() async throws {
        func transport(_ recorder: Recorder, found: Set<String>) -> RecordingTransport {
            RecordingTransport(
                wrapping: ClosureTransport { request in
                    let path = String(request.url.dropFirst("http://api".count))
                    return HTTPClientResponse(status: found.contains(path) ? .ok : .notFound, body: Array(path.utf8))
                }, recorder: recorder)
        }
        let holding = RecordingConfiguration(holdsNotFound: true)
        let lost = try Recorder(configuration: holding, stubsDirectory: nil)
        let nowhere = transport(lost, found: [])
        for path in ["/pets", "/vets/1"] { _ = try await nowhere.send(HTTPClientRequest(url: "http://api" + path)) }
        let nothing = lost.finish()
        #expect(nothing.heldNotFound.map(\.label) == ["GET /pets", "GET /vets/1"])
        #expect(nothing.mappings.isEmpty, "nothing recorded while everything is a 404")

        let recorder = try Recorder(configuration: holding, stubsDirectory: nil)
        let api = transport(recorder, found: ["/vets/1"])
        for path in ["/vets/9", "/vets/1", "/vets/8"] {
            _ = try await api.send(HTTPClientRequest(url: "http://api" + path))
        }
        let result = recorder.finish()
        #expect(result.heldNotFound.isEmpty)
        // Once the API answered, its 404s are answers like any other, in order.
        #expect(result.mappings.map(\.request.url) == [.url("/vets/9"), .url("/vets/1"), .url("/vets/8")])
    }

    @Test func crawlingTheOriginRecordsNothingAndNamesTheBaseUrl() async throws {
        let api = try PetAPIUpstream()
        let folder = try TemporaryDirectory(prefix: "crawl-origin")
        defer {
            api.stop()
            folder.remove()
        }
        let stubs = folder.file("Recorded")
        let run = try await ToolProcess.run(
            "petmock", ["record", "--crawl", "--target", api.baseURL, "--stubs", stubs])
        #expect(run.status == 2, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stderr.contains("every request answered 404 at \(api.baseURL) (GET /pets"), "\(run.stderr)")
        #expect(run.stderr.contains("nothing recorded"))
        #expect(run.stderr.contains("\(api.baseURL)/api/pets answers 200, so pass --target \(api.baseURL)/api"))
        #expect(FileSystem.kind(of: stubs) == nil, "no 404 recordings, no folder")
    }
}

/// `petmock record --target` is the API's base URL in both modes: the proxy keeps each path as
/// it comes, refuses paths outside the prefix, and stops at a 404 that repeats the prefix.
@Suite(.serialized) struct RecordTargetTests {
    @Test func theProxyTakesTheBaseUrlAsTheCrawlDoes() async throws {
        let api = try PetAPIUpstream()
        let folder = try TemporaryDirectory(prefix: "record-base")
        defer {
            api.stop()
            folder.remove()
        }
        let stubs = folder.file("Recorded")
        let recorder = try await ServerProcess(
            "petmock", ["record", "--target", api.baseURL + "/api", "--stubs", stubs, "--port", "0"])
        defer { recorder.terminate() }
        // Each request on its own connection, closed after it, as an app's would be at its end:
        // the recorder's shutdown then need not wait for a kept-alive one.
        func get(_ path: String) async throws -> HTTPClientResponse {
            try await TestClient().get(recorder.url + path, headers: ["Connection": "close"])
        }
        let pets = try await get("/api/pets")
        #expect(pets.status == .ok, "sent to /api/pets, not /api/api/pets")
        let outside = try await get("/pets")
        #expect(outside.status == .notFound)
        #expect(String(decoding: outside.body, as: UTF8.self).contains("outside the recorded API's base path '/api'"))
        let doubled = try await get("/api/api/pets")
        #expect(doubled.status == .notFound, "the live answer is passed on")
        #expect(await recorder.exitStatus(within: 30) == 2, "a repeated prefix stops the recording")
        let errors = recorder.finalErrorOutput()
        #expect(errors.contains("error: stopped: GET /api/api/pets answered 404 and repeats the base path '/api'"))
        #expect(errors.contains("point the client at \(recorder.url)/api"), "\(errors)")
        #expect(try mappingFileNames(stubs) == ["get-api-pets.json"], "neither the refusal nor the 404 was recorded")
    }

    @Test func aProxyAtAWrongBaseUrlRecordsNothingAndSaysSo() async throws {
        let api = try PetAPIUpstream()
        let folder = try TemporaryDirectory(prefix: "record-wrong-base")
        defer {
            api.stop()
            folder.remove()
        }
        let stubs = folder.file("Recorded")
        let recorder = try await ServerProcess(
            "petmock", ["record", "--target", api.baseURL + "/v9", "--stubs", stubs, "--port", "0"])
        let missing = try await TestClient().get(recorder.url + "/v9/pets")
        #expect(missing.status == .notFound)
        #expect(await recorder.interrupt() == 2)
        let errors = recorder.finalErrorOutput()
        #expect(errors.contains("GET /v9/pets answered 404; held back, not written"), "\(errors)")
        #expect(errors.contains("every request answered 404 at \(api.baseURL)/v9 (GET /v9/pets); nothing recorded"))
        #expect(errors.contains("the proxy takes the API's base URL"))
        #expect(FileSystem.kind(of: stubs) == nil, "no 404 recordings, no folder")
    }
}
