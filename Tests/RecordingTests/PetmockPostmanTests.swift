import HTTPClient
import HTTPCore
import JSONKit
import StubFormat
import TestSupport
import Testing

@testable import MockCLI

/// `petmock serve --postman` and `petmock generate --postman`, as processes: the pet store
/// collection (Tests/StubFormatTests/Fixtures/Postman) served on port 0, and the folder
/// generated from it served by `serve --stubs` with the same answers and accepted by `validate`.
@Suite struct PetmockPostmanTests {
    static let collection = "Tests/StubFormatTests/Fixtures/Postman/petstore.postman_collection.json"
    static let environment = "Tests/StubFormatTests/Fixtures/Postman/local.postman_environment.json"

    /// The requests compared, with their header fields.
    static let requests: [(method: HTTPMethod, path: String, headers: HTTPHeaders)] = [
        (.get, "/api/pets?limit=2", [:]),
        (.get, "/api/pets?status=sold&sort=name%20asc", [:]),
        (.get, "/api/pets/1", [:]),
        (.get, "/api/pets/1", ["X-Petmock-Variant": "Rex-adopted"]),
        (.get, "/api/pets/999", [:]),
        (.post, "/api/pets/5/photos", [:]),
        (.get, "/api/store/inventory", ["Authorization": "Bearer s3cret"]),
        (.get, "/api/store/inventory", ["Authorization": "Bearer wrong"]),
        (.get, "/api/pets/1", ["Prefer": "example=Rex", "Accept": "application/json"]),
    ]

    /// Status, the example's header fields and body of each request.
    static func answers(_ base: String) async throws -> [String] {
        let client = CurlTransport()
        var answers: [String] = []
        for request in requests {
            let response = try await client.send(
                HTTPClientRequest(method: request.method, url: base + request.path, headers: request.headers))
            let fields = ["Content-Type", "Location", "X-Total-Count", "Petmock-Variant"].compactMap { name in
                response.headers.first(name: name).map { "\(name): \($0)" }
            }
            let body =
                response.status.code == 404 && request.path.hasPrefix("/api/store")
                ? "" : String(decoding: response.body, as: UTF8.self)
            answers.append("\(response.status.code) \(fields.joined(separator: ", ")) \(body)")
        }
        return answers
    }

    @Test func serveAnswersTheExamplesAndGenerateWritesAFolderThatAnswersTheSame() async throws {
        let served = try await ServerProcess(
            "petmock",
            ["serve", "--postman", Self.collection, "--postman-environment", Self.environment, "--port", "0"])
        let direct = try await Self.answers(served.url)
        #expect(await served.stop() == 0)
        let log = served.finalErrorOutput()
        #expect(log.contains("warning: $.item[2]: the request 'Health' has no saved example, so no stub"), "\(log)")
        #expect(log.contains("serving 7 mappings from \(Self.collection) (7 from 5 requests) on "), "\(log)")
        #expect(direct[0].hasPrefix("200 Content-Type: application/json, X-Total-Count: 2 [{"), "\(direct)")
        #expect(direct[3].contains("Petmock-Variant: Rex-adopted"), "\(direct)")
        #expect(direct[4] == "404 Content-Type: text/plain No pet with id 999", "\(direct)")
        #expect(direct[6].hasPrefix("200 "), "\(direct)")
        #expect(direct[7].hasPrefix("404 "), "\(direct)")
        // The first example, named: its one stub answers, still 7 mappings.
        #expect(direct[8] == direct[2], "\(direct)")

        let folder = try TemporaryDirectory(prefix: "postman-generate")
        defer { folder.remove() }
        let generated = try await ToolProcess.run(
            "petmock",
            [
                "generate", "--postman", Self.collection, "--postman-environment", Self.environment, "--out",
                folder.file("Stubs"),
            ])
        #expect(generated.status == 0, "\(generated.stderr)")
        #expect(generated.stdout.contains("wrote 7 mappings (1 variant) for 5 requests"), "\(generated.stdout)")
        let validated = try await ToolProcess.run("petmock", ["validate", "--stubs", folder.file("Stubs")])
        #expect(validated.status == 0, "\(validated.stdout)\(validated.stderr)")

        let fromFolder = try await ServerProcess(
            "petmock", ["serve", "--stubs", folder.file("Stubs"), "--port", "0"])
        let again = try await Self.answers(fromFolder.url)
        #expect(await fromFolder.stop() == 0)
        #expect(again == direct)
    }

    /// `variants --postman` lists the collection's examples as `serve --postman` serves them,
    /// beside the stub folder's when `--stubs` is given too.
    @Test func variantsListTheCollectionsExamples() async throws {
        let text = try await ToolProcess.run(
            "petmock", ["variants", "--postman", Self.collection, "--postman-environment", Self.environment])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(
            text.stdout.contains("  Rex-adopted         GET /api/pets/1  Postman example 'Rex, adopted'"),
            "\(text.stdout)")
        #expect(text.stdout.contains("JSON fields in the base stubs: available, id, name, sold, status"))
        #expect(text.stdout.contains("Base examples"), "\(text.stdout)")
        #expect(text.stdout.contains("  Rex                 GET /api/pets/1"), "\(text.stdout)")
        #expect(text.stderr.contains("warning: $.item[2]: the request 'Health' has no saved example"), "\(text.stderr)")
        let json = try await ToolProcess.run(
            "petmock", ["variants", "--postman", Self.collection, "--stubs", "Stubs", "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let names = try JSONValue(parsing: json.stdout)["fileVariants"]?.arrayValue?.compactMap {
            $0["name"]?.stringValue
        }
        #expect(names?.contains("Rex-adopted") == true, "\(json.stdout)")
        #expect(names?.contains("vet-id-renamed") == true, "\(json.stdout)")
        let examples = try JSONValue(parsing: json.stdout)["baseExamples"]?.arrayValue?.compactMap {
            $0["name"]?.stringValue
        }
        #expect(examples?.contains("Rex") == true, "\(json.stdout)")
    }

    /// An example's name is the collection's text: the listing shows its control characters
    /// escaped, never sends them to the terminal.
    @Test func variantsEscapeWhatTheCollectionNames() async throws {
        let collection = #"""
            {"info": {"name": "a"}, "item": [{"name": "T", "request": {"method": "GET", "url": {"path": ["t"]}},
             "response": [{"name": "first", "code": 200, "body": "a"},
                          {"name": "x\u001b[31mred", "code": 201, "body": "b"}]}]}
            """#
        let folder = try TemporaryDirectory(prefix: "postman-variants", files: ["c.json": collection])
        defer { folder.remove() }
        let text = try await ToolProcess.run("petmock", ["variants", "--postman", folder.file("c.json")])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(!text.stdout.contains("\u{1B}"), "\(text.stdout)")
        #expect(text.stdout.contains("  first               GET /t"), "\(text.stdout)")
    }

    /// What `serve --postman --watch` reads again: the collection and its environment, their
    /// stubs and warnings, or the problem that keeps the last ones serving.
    @Test func theWatchedCollectionReadsBothFilesAgain() throws {
        let input = PostmanInput(file: Self.collection, environmentFile: Self.environment)
        let watched = input.watched
        #expect(watched.files == [Self.collection, Self.environment])
        guard case .success(let read) = watched.read() else {
            Issue.record("the collection was not read")
            return
        }
        #expect(read.mappings.count == 7)
        #expect(read.problems.contains { $0.kind == .noExample })
        let folder = try TemporaryDirectory(prefix: "postman-watch", files: ["c.json": "{ not json"])
        defer { folder.remove() }
        guard
            case .failure(let problem) = PostmanInput(file: folder.file("c.json"), environmentFile: nil).watched.read()
        else {
            Issue.record("a broken collection was read")
            return
        }
        #expect(problem.kind == .invalidJSON && problem.file == folder.file("c.json"))
    }

    /// What cannot be read stops the tools with a message that says what to do.
    @Test(arguments: [
        (
            [
                "serve", "--postman", "Tests/StubFormatTests/Fixtures/Postman/local.postman_environment.json", "--port",
                "0",
            ],
            Int32(2), "$: not a Postman collection: missing field 'info'"
        ),
        (
            ["serve", "--openapi", collection, "--port", "0"], Int32(2),
            "is a Postman collection, not an OpenAPI document; pass --postman"
        ),
        (
            ["serve", "--postman-environment", environment, "--port", "0"], Int32(64),
            "expected --postman FILE beside it"
        ),
        (["serve", "--postman", collection, "--strict", "--port", "0"], Int32(1), "--strict: "),
        (["serve", "--postman-auth", "on", "--port", "0"], Int32(64), "expected --postman FILE beside it"),
        (
            ["variants", "--postman", "Tests/StubFormatTests/Fixtures/Postman/local.postman_environment.json"],
            Int32(2), "not a Postman collection"
        ),
        (["generate", "--out", "x"], Int32(64), "pass --openapi FILE or --postman FILE"),
        (["generate", "--postman", collection, "--openapi", collection, "--out", "x"], Int32(64), "pass one of them"),
        (
            ["generate", "--postman", collection, "--base-path", "/v1", "--out", "x"], Int32(64),
            "--openapi FILE beside it"
        ),
    ])
    func refusals(arguments: [String], status: Int32, message: String) async throws {
        let result = try await ToolProcess.run("petmock", arguments, timeout: 30)
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func aVersion1CollectionIsRefusedWithWhatToDo() async throws {
        let folder = try TemporaryDirectory(
            prefix: "postman-v1",
            files: [
                "old.json": #"{"id": "1", "name": "old", "order": [], "requests": []}"#
            ])
        defer { folder.remove() }
        let result = try await ToolProcess.run(
            "petmock", ["generate", "--postman", folder.file("old.json"), "--out", folder.file("Stubs")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("Postman collection v1 is not supported; export as v2.1"), "\(result.stderr)")
    }
}
