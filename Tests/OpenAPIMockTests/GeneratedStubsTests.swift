import APISchema
import AdminAPI
import ContractKit
import Foundation
import HTTPCore
import MockCLI
import MockEngine
import OpenAPIMock
import StubFormat
import TestSupport
import Testing

/// `petmock generate`: the stub folder written from a document answers every operation and
/// documented status, and every named example, exactly as `serve --openapi` does, and
/// `petcontract verify --stub` passes it.
@Suite struct GeneratedStubsTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ContractKitTests/Fixtures")
    static let items = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/items.yaml").path

    /// The documents: the items fixture and corpus documents, JSON and YAML.
    static let documents = [
        items, "oai/petstore.yaml", "oai/petstore-expanded.json", "oai/api-with-examples.yaml",
        "oai/callback-example.json", "oai/link-example.yaml", "oai/tictactoe.json", "oai/uspto.yaml",
        "oai/github-slice.json", "oai/non-oauth-scopes.yaml",
    ]

    static func path(_ document: String) -> String {
        document.hasPrefix("/") ? document : fixtures.appendingPathComponent(document).path
    }

    static let noUpstream = ClosureTransport {
        (request: HTTPClientRequest) throws(HTTPClientError) -> HTTPClientResponse in
        throw HTTPClientError(kind: .other, url: request.url, message: "no upstream in this test")
    }

    /// A handler as `serve` makes it: over a stub folder, or answering from a document only.
    static func handler(
        stubs: String?, fallback: OpenAPIResponder? = nil, variant: String? = nil
    ) throws
        -> StubHandler
    {
        var configuration = StubHandlerConfiguration(variant: variant)
        configuration.fallback = fallback
        return try StubHandler(
            stubsDirectory: stubs, mappings: [], configuration: configuration, upstream: .transport(noUpstream))
    }

    /// A request path for an operation: each parameter segment given a value no literal has.
    static func target(_ responder: OpenAPIResponder, _ operation: String) -> String {
        let path = operation.split(separator: " ", maxSplits: 1).last.map(String.init) ?? "/"
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.hasPrefix("{") && segment.hasSuffix("}") ? "p7" : String(segment)
        }
        return responder.basePath + segments.joined(separator: "/")
    }

    /// The request a stub of the folder answers: its operation's method and a target, with a
    /// `Prefer` field naming its status (unless the operation's default) and its example.
    static func request(
        for stub: DocumentStubSet.Stub, in contract: Contract, _ responder: OpenAPIResponder
    ) -> (method: String, target: String, headers: [(String, String)]) {
        var prefer: [String] = []
        if stub.status != contract.operations.first(where: { $0.name == stub.operation })?.defaultStatus {
            prefer.append("code=\(stub.status)")
        }
        if let example = stub.example { prefer.append("example=\(example)") }
        let headers = prefer.isEmpty ? [] : [("Prefer", prefer.joined(separator: ", "))]
        let method = String(stub.operation.split(separator: " ")[0])
        return (method, target(responder, stub.operation), headers)
    }

    /// The header fields petmock adds to a stub's answer, which a document answer has not.
    static let stubHeaders: Set<String> = ["matched-stub-id", "matched-stub-name", "petmock-variant"]

    @Test(arguments: documents)
    func theFolderAnswersAsTheDocument(document: String) throws {
        let contract = try OpenAPIReader().read(file: Self.path(document))
        // The folder answers without checking requests or their credentials: compare the
        // documented answers alone.
        let responder = OpenAPIResponder(contract: contract, validatesRequests: false, enforcesSecurity: false)
        let stubs = DocumentStubSet(responder: responder)
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try stubs.write(to: folder.path)
        let served = try Self.handler(stubs: folder.path)
        #expect(served.loadProblems.isEmpty, "\(served.loadProblems.map(\.description))")
        let documentOnly = try Self.handler(stubs: nil, fallback: responder)
        #expect(stubs.stubs.count >= contract.operations.count)
        for stub in stubs.stubs {
            let (method, target, headers) = Self.request(for: stub, in: contract, responder)
            let expected = try documentOnly.answer(method, target, headers: headers)
            let answer = try served.answer(method, target, headers: headers)
            let label = "\(stub.operation) \(stub.status) \(stub.example ?? "")"
            #expect(answer.status == expected.status, "\(label)")
            #expect(answer.status == stub.mapping.response.status, "\(label)")
            let fields = answer.headers.fields.filter { !Self.stubHeaders.contains($0.name.lowercased()) }
            #expect(
                fields.map { "\($0.name): \($0.value)" } == expected.headers.fields.map { "\($0.name): \($0.value)" })
            #expect(answer.body == expected.body, "\(label)")
            #expect(answer.header("Matched-Stub-Id") == stub.mapping.id, "\(label)")
        }
    }

    /// Every tenth operation of GitHub's description (a folder of all 623 takes a while to
    /// write): the folder answers as the document, and verify --stub passes it.
    @Test func aSliceOfGitHubsDescription() throws {
        var contract = try DocumentSelfConsistencyTests.github()
        contract.operations = contract.operations.enumerated().filter { $0.offset % 10 == 0 }.map(\.element)
        // The folder answers without checking requests or their credentials: compare the
        // documented answers alone.
        let responder = OpenAPIResponder(contract: contract, validatesRequests: false, enforcesSecurity: false)
        let stubs = DocumentStubSet(responder: responder)
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try stubs.write(to: folder.path)
        let served = try Self.handler(stubs: folder.path)
        #expect(served.loadProblems.isEmpty)
        let documentOnly = try Self.handler(stubs: nil, fallback: responder)
        for stub in stubs.stubs {
            let (method, target, headers) = Self.request(for: stub, in: contract, responder)
            let answer = try served.answer(method, target, headers: headers)
            #expect(answer.header("Matched-Stub-Id") == stub.mapping.id, "\(stub.mapping.name ?? "")")
            #expect(answer.body == (try documentOnly.answer(method, target, headers: headers)).body)
        }
        let report = StubVerifier(contract: contract).verify(directory: folder.path, contractName: "github")
        let breaking = report.findings.filter { $0.level == .breaking }
        #expect(breaking.isEmpty, "\(breaking.map(\.message))")
        #expect(report.errors.isEmpty)
    }

    /// The default status wins over the others for a request that asks for nothing.
    @Test func aPlainRequestGetsTheDefaultStatusAndPreferReachesTheOthers() throws {
        let responder = OpenAPIResponder(contract: try OpenAPIReader().read(file: Self.items))
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try DocumentStubSet(responder: responder).write(to: folder.path)
        let served = try Self.handler(stubs: folder.path)
        #expect(try served.answer("POST", "/v2/items").status == 201)
        #expect(try served.answer("POST", "/v2/items", headers: [("Prefer", "code=422")]).status == 422)
        let apple = try served.answer("/v2/items/3", headers: [("Prefer", "example=apple")])
        #expect(apple.text.contains("\"apple\""))
        // The first named example comes before the single `example`, as the responder has it.
        #expect(try served.answer("/v2/items/3").text.contains("\"hammer\""))
        // A drift applies to the folder's answer as to the document's.
        let documentOnly = try Self.handler(stubs: nil, fallback: responder)
        let drift = [("X-Petmock-Variant", "missing:name")]
        let drifted = try served.answer("/v2/items/3", headers: drift)
        #expect(drifted.body == (try documentOnly.answer("/v2/items/3", headers: drift)).body)
        #expect(!drifted.text.contains("\"name\""))
    }

    @Test(arguments: documents)
    func verifyStubPassesTheFolder(document: String) throws {
        let contract = try OpenAPIReader().read(file: Self.path(document))
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try DocumentStubSet(responder: OpenAPIResponder(contract: contract)).write(to: folder.path)
        let report = StubVerifier(contract: contract).verify(directory: folder.path, contractName: document)
        #expect(report.errors.isEmpty, "\(report.errors)")
        let breaking = report.findings.filter { $0.level == .breaking }
        #expect(breaking.isEmpty, "\(breaking.map(\.message))")
        let skipped = report.notes.filter { $0.contains("skipped") && !$0.contains("no responses to check against") }
        #expect(skipped.isEmpty, "\(skipped)")
        let checked = contract.operations.filter { !$0.responses.isEmpty }.map(\.name)
        #expect(Set(report.operations) == Set(checked))
    }

    @Test func aPathThatIsNoTemplateIsAPattern() {
        #expect(DocumentStubSet.urlPattern("/v2/items/{id}") == .urlPathTemplate("/v2/items/{id}"))
        #expect(DocumentStubSet.urlPattern("/files/{name}.json") == .urlPathPattern("/files/\\{name\\}\\.json"))
        #expect(DocumentStubSet.urlPattern("/a/{}") == .urlPathPattern("/a/[^/]+"))
    }

    @Test func aNamedExampleThatCannotBeAVariantIsNoted() throws {
        #expect(DocumentStubSet.isVariantName("apple"))
        for name in ["empty", "missing:x", "two words", " apple"] { #expect(!DocumentStubSet.isVariantName(name)) }
        let document = """
            openapi: 3.0.3
            info: {title: Notes, version: "1"}
            paths:
              /things:
                get:
                  responses:
                    "200":
                      description: Things
                      content:
                        application/json:
                          examples:
                            empty: {value: []}
                            some: {value: [1]}
                    default:
                      description: An error
            """
        let contract = try OpenAPIReader().read(Array(document.utf8), source: "notes.yaml")
        let stubs = DocumentStubSet(responder: OpenAPIResponder(contract: contract))
        #expect(stubs.stubs.map(\.example) == [nil, "some"])
        #expect(stubs.notes.count == 2)
        #expect(stubs.notes.contains { $0.contains("'empty'") })
        #expect(stubs.notes.contains { $0.contains("'default'") })
    }

    /// The same document gives the same folder: ids, names, files and bytes.
    @Test func theFolderIsTheSameFromRunToRun() throws {
        let contract = try OpenAPIReader().read(file: Self.items)
        let first = DocumentStubSet(responder: OpenAPIResponder(contract: contract)).stubs
        let second = DocumentStubSet(responder: OpenAPIResponder(contract: contract)).stubs
        #expect(first.map(\.mapping) == second.map(\.mapping))
        #expect(first.map(\.body) == second.map(\.body))
        #expect(Set(first.map(\.mapping.id)).count == first.count)
        #expect(Set(first.compactMap(\.bodyFileName)).count == first.count { $0.bodyFileName != nil })
    }

    @Test func generateRefusesAFolderThatIsNotEmptyUnlessForced() async throws {
        let folder = try TemporaryDirectory(files: ["notes.txt": "mine"])
        defer { folder.remove() }
        let tool = MockTool(contract: nil)
        let refused = await tool.run(["generate", "--openapi", Self.items, "--out", folder.path])
        #expect(refused == .couldNotRun)
        #expect(FileManager.default.fileExists(atPath: folder.file("mappings")) == false)
        let forced = await tool.run(["generate", "--openapi", Self.items, "--out", folder.path, "--force"])
        #expect(forced == .success)
        #expect(try String(contentsOfFile: folder.file("notes.txt"), encoding: .utf8) == "mine")
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.file("mappings"))
        #expect(
            written.count
                == DocumentStubSet(responder: OpenAPIResponder(contract: try OpenAPIReader().read(file: Self.items)))
                .stubs.count)
        #expect(await tool.run(["generate", "--openapi", Self.items]) == .usage)
    }

    @Test func generateUnderABasePath() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let out = folder.file("stubs")
        #expect(
            await MockTool(contract: nil).run([
                "generate", "--openapi", Self.items, "--out", out, "--base-path", "/api",
            ]) == .success)
        let served = try Self.handler(stubs: out)
        #expect(try served.answer("/api/items/3").status == 200)
        #expect(try served.answer("/v2/items/3").status == 404)
    }
}
