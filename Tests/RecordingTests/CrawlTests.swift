import ContractKit
import HTTPCore
import MockEngine
import PetAppContract
import Platform
import StubServerKit
import TestSupport
import Testing

@testable import MockCLI

/// `--crawl` as a library: the contract verifier's walk through a recording transport.
@Suite struct CrawlTests {
    @Test func theContractsOperationsAreRecordedFollowingIdsFoundInResponses() async throws {
        let api = try PetAPIUpstream()
        let stubs = try TemporaryDirectory(prefix: "crawl")
        defer {
            api.stop()
            stubs.remove()
        }
        let (contract, models) = try PetApp.contract.make()
        let configuration = RecordingConfiguration(targetBaseURL: api.baseURL + "/api")
        let recorder = try Recorder(configuration: configuration, stubsDirectory: stubs.path)
        // The same walk `petmock record --crawl` runs, without its printing and signal handling.
        let crawl = RecordCommand.Crawl(
            configuration: configuration, directory: stubs.path,
            check: RecordingCheck(directory: stubs.path, contractFile: nil, builtIn: PetApp.contract, enabled: true),
            maxPerOperation: 20, headers: [:])
        let outcome = await crawl.crawl(
            contract: contract, models: models, contractName: "built-in", recorder: recorder,
            transport: TestClient().transport)
        let result = outcome.recording
        #expect(outcome.live.errors.isEmpty)
        #expect(outcome.notFound.isEmpty)
        // What the app calls: /pets, then /vets/{id} with every vetId the seeded pets name
        // (1, 2 and 3), each recorded once.
        #expect(
            try mappingFileNames(stubs.path).sorted() == [
                "get-api-pets.json", "get-api-vets-1.json", "get-api-vets-2.json", "get-api-vets-3.json",
            ])
        #expect(result.mappings.allSatisfy { $0.response.status == 200 })

        let names = result.mappingFiles.map { FileSystem.lastComponent(of: $0) }
        let check = StubVerifier(contract: contract, models: models).verify(
            directory: stubs.path, contractName: "built-in", mappingFiles: names)
        #expect(check.findings.isEmpty && check.errors.isEmpty)
        #expect(Set(check.operations) == ["GET /pets", "GET /vets/{id}"])
    }

    @Test func theCheckLooksAtTheRecordedFilesOnly() throws {
        let stubs = try TemporaryDirectory(prefix: "crawl-check")
        defer { stubs.remove() }
        try writeText(
            stubs.file("mappings/broken.json"),
            #"{"request": {"method": "GET", "url": "/api/pets"}, "response": {"status": 200, "jsonBody": [{"vetId": "x"}]}}"#
        )
        try writeText(
            stubs.file("mappings/good.json"),
            """
            {"request": {"method": "GET", "url": "/api/vets/1"}, "response": {"status": 200,
             "headers": {"Content-Type": "application/json"}, "jsonBody": {"firstName": "A", "lastName": "B", "title": "DVM"}}}
            """)
        let (contract, models) = try PetApp.contract.make()
        let verifier = StubVerifier(contract: contract, models: models)
        #expect(!verifier.verify(directory: stubs.path, contractName: "c").findings.isEmpty)
        #expect(verifier.verify(directory: stubs.path, contractName: "c", mappingFiles: ["good.json"]).findings.isEmpty)
    }
}
