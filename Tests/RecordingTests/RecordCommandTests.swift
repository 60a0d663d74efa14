import Foundation
import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import MockEngine
import StubServerKit
import TestSupport
import Testing

/// The steps of docs/recording.md with the real binaries: `petapi serve`, `petmock record` in front of it,
/// stop, `petmock serve` the recording, compare.
@Suite(.serialized) struct RecordCommandTests {
    static func petapi(_ folder: TemporaryDirectory) async throws -> ServerProcess {
        try await ServerProcess("petapi", ["serve", "--port", "0", "--db", folder.file("petapi.sqlite")])
    }

    @Test func recordStopServeAndCompare() async throws {
        let folder = try TemporaryDirectory(prefix: "record-cli")
        defer { folder.remove() }
        let api = try await Self.petapi(folder)
        defer { api.terminate() }
        let stubs = folder.file("Stubs")
        let recorder = try await ServerProcess(
            "petmock", ["record", "--target", api.url, "--stubs", stubs, "--port", "0"])
        let client = TestClient()
        let paths = ["/api/pets", "/api/vets/1", "/api/vets/2"]
        var live: [HTTPClientResponse] = []
        for path in paths { live.append(try await client.get(recorder.url + path)) }
        #expect(await recorder.interrupt() == 0, "Ctrl-C stops cleanly: \(recorder.errorOutput)")
        let output = recorder.finalOutput().joined(separator: "\n")
        #expect(output.contains("recorded 3 mappings in 3 files into \(stubs)"))
        #expect(output.contains("operations checked against \(stubs) (contract built-in): 0 breaking"), "\(output)")
        #expect(recorder.errorOutput.contains("recorded GET /api/pets (200) -> \(stubs)/mappings/get-api-pets.json"))

        let server = try await ServerProcess(
            "petmock", ["serve", "--stubs", stubs, "--port", "0", "--proxy-unmatched", api.url])
        defer { server.terminate() }
        for (path, recorded) in zip(paths, live) {
            let replayed = try await client.get(server.url + path)
            #expect(replayed.body == recorded.body, "\(path)")
            #expect(keptHeaders(replayed.headers) == keptHeaders(recorded.headers), "\(path)")
            #expect(replayed.headers["Matched-Stub-Id"] != nil)
        }
        let proxied = try await client.get(server.url + "/api/vets/3")
        #expect(proxied.status == .ok && proxied.headers["Matched-Stub-Id"] == nil, "not recorded: proxied")
    }

    @Test func aKilledRecorderHasAlreadyWrittenWhatItAnswered() async throws {
        let folder = try TemporaryDirectory(prefix: "record-kill")
        defer { folder.remove() }
        let api = try await Self.petapi(folder)
        defer { api.terminate() }
        let stubs = folder.file("Stubs")
        let recorder = try await ServerProcess(
            "petmock", ["record", "--target", api.url, "--stubs", stubs, "--port", "0"])
        let pets = try await TestClient().get(recorder.url + "/api/pets")
        await recorder.kill9()
        let report = try StubLoader(root: stubs).load()
        #expect(report.problems.isEmpty && report.mappings.count == 1)
        guard case .json(let body)? = report.mappings.first?.response.body else {
            Issue.record("expected a jsonBody")
            return
        }
        #expect(body.serializedBytes() == pets.body)
    }

    @Test func crawlRecordsTheContractAndChecksIt() async throws {
        let folder = try TemporaryDirectory(prefix: "crawl-cli")
        defer { folder.remove() }
        let api = try await Self.petapi(folder)
        defer { api.terminate() }
        let stubs = folder.file("Stubs")
        let run = try await ToolProcess.run(
            "petmock", ["record", "--crawl", "--target", api.url + "/api", "--stubs", stubs])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        // What the app calls: /pets, and /vets/{id} for each of the three vets the pets name.
        #expect(run.stdout.contains("recorded 4 mappings in 4 files"))
        #expect(run.stdout.contains("0 breaking"))
        #expect(try StubLoader(root: stubs).load().mappings.count == 4)
    }

    @Test func ctrlCDuringACrawlKeepsWhatWasRecorded() async throws {
        let (reached, signal) = AsyncStream<Void>.makeStream()
        let api = try PetAPIUpstream()
        let slow = try startUpstream { request in
            // Everything but one vet answers at once; vet 2 makes the crawl wait.
            if request.path == "/api/vets/2" {
                signal.yield()
                return .response(HTTPResponse(text: "late")).delayed(by: .fixed(.seconds(30)))
            }
            let forwarded = api.baseURL + request.head.target
            let reply = DeferredReply()
            Task {
                let response = try await TestClient().get(forwarded)
                reply.complete(
                    .response(
                        HTTPResponse(
                            status: response.status, headers: ["Content-Type": "application/json"],
                            body: response.body)))
            }
            return .deferred(reply)
        }
        let folder = try TemporaryDirectory(prefix: "crawl-interrupt")
        defer {
            slow.stop()
            api.stop()
            folder.remove()
        }
        let stubs = folder.file("Stubs")
        let crawl = try await ServerProcess(
            "petmock", ["record", "--crawl", "--target", "http://127.0.0.1:\(slow.port)/api", "--stubs", stubs])
        var iterator = reached.makeAsyncIterator()
        _ = await iterator.next()
        let clock = ContinuousClock()
        let start = clock.now
        let status = await crawl.interrupt()
        #expect(clock.now - start < .seconds(10), "the crawl stops without waiting for the slow answer")
        #expect(status == 0, "\(crawl.errorOutput)")
        let output = crawl.finalOutput().joined(separator: "\n")
        // /pets and /vets/1 were answered; /vets/2 and /vets/3 were cancelled.
        #expect(output.contains("recorded 2 mappings in 2 files"), "\(output)")
        #expect(!output.contains("upstream failures"), "a cancelled request is no upstream failure")
        #expect(try mappingFileNames(stubs).contains("get-api-vets-1.json"))
        #expect(try !mappingFileNames(stubs).contains("get-api-vets-2.json"))
    }

    @Test func crawlHeadersReachTheApiAndNeverAFile() async throws {
        // An API that answers only with the key: every operation needs it.
        let guarded = try startUpstream { request in
            guard request.headers["X-Api-Key"] == "s3cret" else {
                return .response(HTTPResponse(status: .unauthorized, text: "no key"))
            }
            let body =
                request.path == "/api/pets" || request.path == "/api/vets"
                ? #"[{"firstName":"Rex","lastName":"Smith","vetId":1}]"#
                : #"{"firstName":"Ann","lastName":"Lee","title":"DVM","vetId":1}"#
            return .response(HTTPResponse(headers: ["Content-Type": "application/json"], body: Array(body.utf8)))
        }
        let folder = try TemporaryDirectory(prefix: "crawl-header")
        defer {
            guarded.stop()
            folder.remove()
        }
        let stubs = folder.file("Stubs")
        let run = try await ToolProcess.run(
            "petmock",
            [
                "record", "--crawl", "--target", "http://127.0.0.1:\(guarded.port)/api", "--stubs", stubs,
                "--header", "X-Api-Key: s3cret", "--capture-header", "X-Api-Key", "--no-verify",
            ])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        let files = try mappingFileNames(stubs)
        #expect(files.contains("get-api-pets.json") && !files.isEmpty)
        for file in files {
            let text = try readText(stubs + "/mappings/" + file)
            #expect(!text.contains("s3cret"), "\(file) holds the key")
            #expect(!text.contains("\"status\": 401"), "\(file) recorded a refusal: the header was not sent")
        }
        let misuse = try await ToolProcess.run(
            "petmock", ["record", "--target", "http://127.0.0.1:9", "--header", "X-Api-Key: s3cret"])
        #expect(misuse.status == 64 && misuse.stderr.contains("'--header' goes with '--crawl'"), "\(misuse.stderr)")
    }

    @Test func crawlingADriftedApiShowsTheDriftAndFails() async throws {
        let drifted = try startUpstream { request in
            let body =
                request.path == "/api/pets"
                ? #"[{"firstName":"Rex","vetId":"1"}]"#
                : #"{"firstName":"Ann","lastName":"Lee","title":"DVM"}"#
            return .response(HTTPResponse(headers: ["Content-Type": "application/json"], body: Array(body.utf8)))
        }
        let folder = try TemporaryDirectory(prefix: "crawl-drift")
        defer {
            drifted.stop()
            folder.remove()
        }
        let run = try await ToolProcess.run(
            "petmock",
            ["record", "--crawl", "--target", "http://127.0.0.1:\(drifted.port)/api", "--stubs", folder.file("Stubs")])
        #expect(run.status == 1, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("$[0].vetId") && run.stdout.contains("response-property-type-changed"))
    }

    @Test func usageErrors() async throws {
        #expect(try await ToolProcess.run("petmock", ["record"]).status == 64)
        #expect(try await ToolProcess.run("petmock", ["record", "--target", "localhost:8081"]).status == 64)
        #expect(
            try await ToolProcess.run("petmock", ["serve", "--proxy-unmatched", "nope", "--port", "0"]).status == 2)
    }
}
